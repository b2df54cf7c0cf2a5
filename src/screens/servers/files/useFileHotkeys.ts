import { msg } from "@lingui/core/macro";
import { useMemo, useRef } from "react";
import { type ContextHotkey, useContextHotkeys } from "../../../app/hotkeyState";
import { parentPath } from "./paths";
import type { Selection } from "./selection";

const NO_HOTKEYS: ContextHotkey[] = [];

/**
 * Hotkeys while the file list is shown (spec §2.2): up a folder, new file or folder, delete the
 * selection (with the usual confirmation).
 */
export function useFileHotkeys(
  on: boolean,
  canEdit: boolean,
  current: {
    dir: string;
    go: (dir: string) => void;
    selected: Selection;
    remove: (names: string[]) => void;
    openNew: (entry: "folder" | "file") => void;
  },
) {
  const latest = useRef(current);
  latest.current = current;
  const hotkeys = useMemo<ContextHotkey[]>(() => {
    const key = (keys: string, label: ContextHotkey["label"], run: () => boolean): ContextHotkey => ({
      keys,
      label,
      run: (e) => {
        if (run()) e.preventDefault();
      },
    });
    const list = [
      key("Backspace", msg`Up one folder`, () => {
        const { dir, go } = latest.current;
        if (!dir) return false;
        go(parentPath(dir));
        return true;
      }),
    ];
    if (canEdit) {
      list.push(
        key("Shift+N", msg`New file`, () => {
          latest.current.openNew("file");
          return true;
        }),
        key("Shift+F", msg`New folder`, () => {
          latest.current.openNew("folder");
          return true;
        }),
        key("Delete", msg`Delete`, () => {
          const names = [...latest.current.selected];
          if (!names.length) return false;
          latest.current.remove(names);
          return true;
        }),
      );
    }
    return list;
  }, [canEdit]);
  useContextHotkeys(on ? hotkeys : NO_HOTKEYS);
}
