import { i18n } from "@lingui/core";
import { type DragEvent, useRef, useState } from "react";
import { toastError } from "../../../components/toastStore";
import { errorMessage } from "../../../i18n/errorMessages";
import { carriesFiles, droppedFiles } from "./dropped";

/**
 * Files dragged onto the listing: `dragging` while they hover (counted through the child
 * elements they cross), and `onFiles` with what was dropped; folders cannot be uploaded.
 */
export function useFileDrop(enabled: boolean, onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const ours = (e: DragEvent) => enabled && carriesFiles([...e.dataTransfer.types]);
  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (!ours(e)) return;
      e.preventDefault();
      depth.current++;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!ours(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      depth.current = 0;
      setDragging(false);
      if (!ours(e)) return;
      e.preventDefault();
      const { files, folders } = droppedFiles(e.dataTransfer);
      if (folders > 0) toastError(i18n._(errorMessage("ErrDirectoryUploadNotSupported")!));
      onFiles(files);
    },
  };
  return { dragging, handlers };
}
