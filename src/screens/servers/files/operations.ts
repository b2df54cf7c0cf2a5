import { plural, t } from "@lingui/core/macro";
import {
  createArchive,
  createFolder,
  deletePath,
  extractArchive,
  movePath,
  writeText,
} from "../../../api/files";
import { confirmAsync } from "../../../components/confirmStore";
import { showToast, toastSuccess } from "../../../components/toastStore";
import { replacedNames } from "./dropped";
import { baseName, joinPath, normalizePath, parentPath, shownPath } from "./paths";

/** What the file operations work on and what they tell the screen. */
export interface OperationContext {
  serverId: string;
  /** The folder shown. */
  dir: string;
  /** The names in it, and whether each is a folder. */
  isFolder: (name: string) => boolean;
  names: ReadonlySet<string>;
  canEdit: boolean;
  refresh: () => void;
  clearSelection: () => void;
  openEditor: (file: { path: string; size?: number }) => void;
  go: (dir: string) => void;
  queueUploads: (files: File[], dir: string) => void;
}

/**
 * The changes the file manager makes, each with its confirmation and toast. A failed call was
 * reported by the global handler; a dialog's submit answers false to stay open.
 */
export function fileOperations(c: OperationContext) {
  const { serverId, dir } = c;

  const remove = async (targets: string[]) => {
    const single = targets.length === 1 ? targets[0] : undefined;
    const folders = targets.some(c.isFolder);
    const yes = await confirmAsync({
      title: single ? t`Delete ${single}?` : plural(targets.length, { other: "Delete # items?" }),
      body: folders
        ? t`Folders are deleted with everything in them. This cannot be undone.`
        : t`This cannot be undone.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    let removed = 0;
    try {
      for (const name of targets) {
        await deletePath(serverId, joinPath(dir, name));
        removed++;
      }
    } catch {
      // the global handler said why; what was removed before stays removed
    }
    c.refresh();
    c.clearSelection();
    if (removed === targets.length) {
      toastSuccess(single ? t`Deleted ${single}` : plural(removed, { other: "Deleted # items" }));
    }
  };

  const create = async (kind: "folder" | "file", name: string): Promise<boolean> => {
    const path = joinPath(dir, name);
    try {
      if (kind === "folder") await createFolder(serverId, path);
      else await writeText(serverId, path, "");
    } catch {
      return false;
    }
    c.refresh();
    if (kind === "file") c.openEditor({ path, size: 0 });
    return true;
  };

  const move = async (name: string, to: string): Promise<boolean> => {
    try {
      await movePath(serverId, joinPath(dir, name), to);
    } catch {
      return false;
    }
    c.refresh();
    const where = shownPath(to);
    const newName = baseName(to);
    toastSuccess(parentPath(to) === dir ? t`Renamed to ${newName}` : t`Moved to ${where}`);
    return true;
  };

  const archive = async (targets: string[], archiveName: string): Promise<boolean> => {
    try {
      await createArchive(
        serverId,
        joinPath(dir, archiveName),
        targets.map((n) => joinPath(dir, n)),
      );
    } catch {
      return false;
    }
    c.refresh();
    c.clearSelection();
    toastSuccess(t`Created ${archiveName}`);
    return true;
  };

  const extract = async (name: string, destination: string): Promise<boolean> => {
    try {
      await extractArchive(serverId, joinPath(dir, name), destination);
    } catch {
      return false;
    }
    c.refresh();
    const where = shownPath(destination);
    if (normalizePath(destination) === dir) toastSuccess(t`Extracted into ${where}`);
    else showToast("success", t`Extracted into ${where}`, { label: t`Open`, run: () => c.go(destination) });
    return true;
  };

  /** Queues the files for this folder, after asking before any is written over. */
  const upload = async (files: File[]) => {
    if (!c.canEdit || files.length === 0) return;
    const replacing = replacedNames(files, c.names);
    if (replacing.length) {
      const yes = await confirmAsync({
        title: plural(replacing.length, { one: "Replace # file?", other: "Replace # files?" }),
        body: replacing.join("\n"),
        confirm: { text: t`Replace` },
        cancel: { color: "neutral" },
      });
      if (!yes) return;
    }
    c.queueUploads(files, dir);
  };

  return { remove, create, move, archive, extract, upload };
}
