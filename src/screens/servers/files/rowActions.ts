import { t } from "@lingui/core/macro";
import { type FileEntry, fileUrl } from "../../../api/files";
import type { FileIconName } from "./fileIcons";
import { archiveKind, isTextName, mayEditAsText } from "./kinds";
import { joinPath, parentPath } from "./paths";

export interface RowAction {
  id: string;
  /** Visible text (in the phone's action sheet and as a tooltip). */
  label: string;
  /** The accessible name, naming the entry ("Delete server.jar"). */
  name: string;
  icon: FileIconName;
  href?: string;
  /** The name the browser saves a download under. */
  download?: string;
  run?: () => void;
  danger?: boolean;
}

/** What a row's actions lead to: the screen's own handlers. */
export interface RowHandlers {
  open: (dir: string) => void;
  edit: (file: { path: string; size?: number }) => void;
  move: (name: string) => void;
  extract: (name: string) => void;
  remove: (name: string) => void;
}

export interface RowContext {
  serverId: string;
  dir: string;
  canEdit: boolean;
  on: RowHandlers;
}

// Download and edit are a row's main button (named by the file) and in its actions (named by
// what they do to the file): `name` is what a screen reader says.
function downloadAction(c: RowContext, entry: FileEntry, name: string): RowAction {
  return {
    id: "download",
    label: t`Download`,
    name,
    icon: "download",
    href: fileUrl(c.serverId, joinPath(c.dir, entry.name)),
    download: entry.name,
  };
}

function editAction(c: RowContext, entry: FileEntry, name: string): RowAction {
  return {
    id: "edit",
    label: c.canEdit ? t`Edit` : t`View`,
    name,
    icon: "edit",
    run: () => c.on.edit({ path: joinPath(c.dir, entry.name), size: entry.size }),
  };
}

/** A row's main button: a folder opens, a text file edits, any other file downloads. */
export function primaryAction(c: RowContext, entry: FileEntry): RowAction {
  const name = entry.name;
  if (!entry.isFile) {
    const up = name === "..";
    return {
      id: "open",
      label: up ? t`Up one folder` : t`Open`,
      name,
      icon: "folder",
      run: () => c.on.open(up ? parentPath(c.dir) : joinPath(c.dir, name)),
    };
  }
  return isTextName(name) ? editAction(c, entry, name) : downloadAction(c, entry, name);
}

/** A row's actions, in their fixed order; changing ones only with server.files.edit. */
export function rowActions(c: RowContext, entry: FileEntry): RowAction[] {
  const name = entry.name;
  if (name === "..") return [];
  const list: RowAction[] = [];
  if (entry.isFile) list.push(downloadAction(c, entry, t`Download ${name}`));
  if (mayEditAsText(entry)) list.push(editAction(c, entry, c.canEdit ? t`Edit ${name}` : t`View ${name}`));
  if (!c.canEdit) return list;
  list.push({
    id: "move",
    label: t`Rename or move`,
    name: t`Rename or move ${name}`,
    icon: "move",
    run: () => c.on.move(name),
  });
  if (entry.isFile && archiveKind(name)) {
    list.push({
      id: "extract",
      label: t`Extract`,
      name: t`Extract ${name}`,
      icon: "extract",
      run: () => c.on.extract(name),
    });
  }
  list.push({
    id: "delete",
    label: t`Delete`,
    name: t`Delete ${name}`,
    icon: "trash",
    danger: true,
    run: () => c.on.remove(name),
  });
  return list;
}
