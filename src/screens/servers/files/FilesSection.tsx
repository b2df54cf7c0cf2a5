import { i18n } from "@lingui/core";
import { msg, plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import {
  type DragEvent,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import {
  createArchive,
  createFolder,
  deletePath,
  extractArchive,
  type FileEntry,
  fileUrl,
  movePath,
  writeText,
} from "../../../api/files";
import { type ContextHotkey, useContextHotkeys } from "../../../app/hotkeyState";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import { showToast, toastError, toastSuccess } from "../../../components/toastStore";
import { errorMessage } from "../../../i18n/errorMessages";
import { intlLocale } from "../../../i18n/locales";
import type { SectionProps } from "../sectionProps";
import { ArchiveDialog, ExtractDialog, MoveDialog, NewEntryDialog } from "./FileDialogs";
import { FileTable, type RowAction } from "./FileTable";
import { FileIcon, type FileIconName } from "./fileIcons";
import { archiveKind, isTextName, mayEditAsText, withArchiveSuffix } from "./kinds";
import {
  baseName,
  breadcrumbs,
  dirFromSearch,
  joinPath,
  normalizePath,
  parentPath,
  searchWithDir,
  shownPath,
} from "./paths";
import { type SortOrder, sortEntries } from "./sorting";
import { UploadList } from "./UploadList";
import { useListing } from "./useListing";
import { useUploads } from "./useUploads";
import "./files.css";

// The editor is its own chunk: browsing never loads it.
const TextEditor = lazy(() => import("./TextEditor"));

type OpenDialog =
  | { kind: "new"; entry: "folder" | "file" }
  | { kind: "move"; name: string }
  | { kind: "archive"; names: string[] }
  | { kind: "extract"; name: string };

/** What was dropped: the files, and how many folders (which cannot be uploaded) were among them. */
function droppedFiles(transfer: DataTransfer): { files: File[]; folders: number } {
  const files: File[] = [];
  let folders = 0;
  const items = [...transfer.items].filter((item) => item.kind === "file");
  if (items.length === 0) return { files: [...transfer.files], folders };
  for (const item of items) {
    if (item.webkitGetAsEntry?.()?.isDirectory) {
      folders++;
      continue;
    }
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  return { files, folders };
}

const carriesFiles = (e: DragEvent) => [...e.dataTransfer.types].includes("Files");

/** A button of the tool bar; on a narrow section its text is hidden (still read out) and its title tells. */
function ToolButton({
  icon,
  text,
  title = text,
  outline,
  onClick,
  testId,
}: {
  icon: FileIconName;
  text: string;
  title?: string;
  outline?: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className={outline ? "btn btn-outline fm-tool" : "btn fm-tool"}
      onClick={onClick}
      data-testid={testId}
      title={title}
    >
      <FileIcon name={icon} size={18} />
      <span className="fm-tool-text">{text}</span>
    </button>
  );
}

/** What the listing shows instead of entries (a missing folder, a failed load), with the way on. */
function ListingMessage({
  children,
  action,
  onAction,
  testId,
}: {
  children: ReactNode;
  action: string;
  onAction: () => void;
  testId?: string;
}) {
  return (
    <div className="fm-message" data-testid={testId}>
      <p>{children}</p>
      <button type="button" className="btn btn-outline" onClick={onAction}>
        {action}
      </button>
    </div>
  );
}

/** File manager (spec §2.3, §7): browse, edit, upload, download, move, archive, extract, delete. */
const NO_HOTKEYS: ContextHotkey[] = [];

export default function FilesSection({ server, can, active }: SectionProps) {
  const serverId = server.id;
  const canEdit = can("server.files.edit");
  const locale = intlLocale(i18n.locale);
  const [dir, setDir] = useState(() => dirFromSearch(location.search));
  const [sort, setSort] = useState<SortOrder>({ key: "name", descending: false });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<OpenDialog>();
  const [editing, setEditing] = useState<{ path: string; size?: number }>();
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const currentCrumb = useRef<HTMLButtonElement>(null);

  // The open folder lives in the query (?path=/a/b), so a reload comes back to it; the hash is
  // the server view's tab.
  const navigated = useRef(false);
  const go = useCallback((next: string) => {
    const clean = normalizePath(next);
    navigated.current = true;
    history.replaceState(
      history.state,
      "",
      `${location.pathname}${searchWithDir(location.search, clean)}${location.hash}`,
    );
    setDir(clean);
  }, []);

  const listing = useListing(serverId, dir, go);
  const { refresh } = listing;
  const dirRef = useRef(dir);
  dirRef.current = dir;
  const uploads = useUploads(serverId, (to) => {
    if (to === dirRef.current) refresh();
  });

  // Coming back to the tab shows what changed meanwhile (the server itself writes files).
  const wasActive = useRef(active);
  useEffect(() => {
    if (active && !wasActive.current) refresh();
    wasActive.current = active;
  }, [active, refresh]);

  const shown = listing.shownDir === dir ? listing.entries : [];
  const names = useMemo(() => new Set(shown.map((e) => e.name)), [shown]);
  const compareNames = useMemo(
    () => new Intl.Collator(locale, { numeric: true, sensitivity: "base" }).compare,
    [locale],
  );
  const sorted = useMemo(() => sortEntries(shown, sort, compareNames), [shown, sort, compareNames]);

  // A selection belongs to one folder, and only to names still there.
  useEffect(() => {
    setSelected((before) => {
      const kept = new Set([...before].filter((n) => names.has(n)));
      return kept.size === before.size ? before : kept;
    });
  }, [names]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the folder changes
  useEffect(() => setSelected(new Set()), [dir]);

  // After entering a folder, focus would be lost with the row that was clicked: put it on the path.
  useEffect(() => {
    if (listing.shownDir !== dir || !active || !navigated.current) return;
    const focused = document.activeElement;
    if (!focused || focused === document.body) currentCrumb.current?.focus();
  }, [listing.shownDir, dir, active]);

  const entryOf = (name: string) => shown.find((e) => e.name === name);

  const remove = async (targets: string[]) => {
    const single = targets.length === 1 ? targets[0] : undefined;
    const folders = targets.some((n) => entryOf(n)?.isFile === false);
    const yes = await confirmAsync({
      title: single ? t`Delete ${single}?` : plural(targets.length, { other: "Delete # items?" }),
      body: folders
        ? t`Folders are deleted with everything in them. This cannot be undone.`
        : t`This cannot be undone.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    const from = dir;
    let removed = 0;
    try {
      for (const name of targets) {
        await deletePath(serverId, joinPath(from, name));
        removed++;
      }
    } catch {
      // the global handler said why; what was removed before stays removed
    }
    refresh();
    setSelected(new Set());
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
    refresh();
    if (kind === "file") setEditing({ path, size: 0 });
    return true;
  };

  const move = async (name: string, to: string): Promise<boolean> => {
    try {
      await movePath(serverId, joinPath(dir, name), to);
    } catch {
      return false;
    }
    refresh();
    const where = shownPath(to);
    const newName = baseName(to);
    toastSuccess(parentPath(to) === dir ? t`Renamed to ${newName}` : t`Moved to ${where}`);
    return true;
  };

  const archive = async (targets: string[], archiveName: string): Promise<boolean> => {
    const from = dir;
    try {
      await createArchive(
        serverId,
        joinPath(from, archiveName),
        targets.map((n) => joinPath(from, n)),
      );
    } catch {
      return false;
    }
    refresh();
    setSelected(new Set());
    toastSuccess(t`Created ${archiveName}`);
    return true;
  };

  const extract = async (name: string, destination: string): Promise<boolean> => {
    try {
      await extractArchive(serverId, joinPath(dir, name), destination);
    } catch {
      return false;
    }
    refresh();
    const where = shownPath(destination);
    if (normalizePath(destination) === dir) toastSuccess(t`Extracted into ${where}`);
    else showToast("success", t`Extracted into ${where}`, { label: t`Open`, run: () => go(destination) });
    return true;
  };

  const upload = async (files: File[]) => {
    if (!canEdit || files.length === 0) return;
    const target = dir;
    const replacing = files.filter((f) => names.has(f.name)).map((f) => f.name);
    if (replacing.length) {
      const yes = await confirmAsync({
        title: plural(replacing.length, { one: "Replace # file?", other: "Replace # files?" }),
        body: replacing.join("\n"),
        confirm: { text: t`Replace` },
        cancel: { color: "neutral" },
      });
      if (!yes) return;
    }
    uploads.add(files, target);
  };

  // Download and edit are a row's main button (named by the file) and in its actions (named by
  // what they do to the file): `name` is what a screen reader says.
  const downloadAction = (entry: FileEntry, name: string): RowAction => ({
    id: "download",
    label: t`Download`,
    name,
    icon: "download",
    href: fileUrl(serverId, joinPath(dir, entry.name)),
    download: entry.name,
  });
  const editAction = (entry: FileEntry, name: string): RowAction => ({
    id: "edit",
    label: canEdit ? t`Edit` : t`View`,
    name,
    icon: "edit",
    run: () => setEditing({ path: joinPath(dir, entry.name), size: entry.size }),
  });

  const primary = (entry: FileEntry): RowAction => {
    const name = entry.name;
    if (!entry.isFile) {
      const up = name === "..";
      return {
        id: "open",
        label: up ? t`Up one folder` : t`Open`,
        name,
        icon: "folder",
        run: () => go(up ? parentPath(dir) : joinPath(dir, name)),
      };
    }
    return isTextName(name) ? editAction(entry, name) : downloadAction(entry, name);
  };

  const actionsFor = (entry: FileEntry): RowAction[] => {
    const name = entry.name;
    if (name === "..") return [];
    const list: RowAction[] = [];
    if (entry.isFile) list.push(downloadAction(entry, t`Download ${name}`));
    if (mayEditAsText(entry)) list.push(editAction(entry, canEdit ? t`Edit ${name}` : t`View ${name}`));
    if (canEdit) {
      list.push({
        id: "move",
        label: t`Rename or move`,
        name: t`Rename or move ${name}`,
        icon: "move",
        run: () => setDialog({ kind: "move", name }),
      });
      if (entry.isFile && archiveKind(name)) {
        list.push({
          id: "extract",
          label: t`Extract`,
          name: t`Extract ${name}`,
          icon: "extract",
          run: () => setDialog({ kind: "extract", name }),
        });
      }
      list.push({
        id: "delete",
        label: t`Delete`,
        name: t`Delete ${name}`,
        icon: "trash",
        danger: true,
        run: () => void remove([name]),
      });
    }
    return list;
  };

  const onDragEnter = (e: DragEvent) => {
    if (!canEdit || !carriesFiles(e)) return;
    e.preventDefault();
    dragDepth.current++;
    setDragging(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (!canEdit || !carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    dragDepth.current = 0;
    setDragging(false);
    if (!canEdit || !carriesFiles(e)) return;
    e.preventDefault();
    const { files, folders } = droppedFiles(e.dataTransfer);
    if (folders > 0) toastError(i18n._(errorMessage("ErrDirectoryUploadNotSupported")!));
    void upload(files);
  };

  // Hotkeys while the file list is shown (spec §2.2): up a folder, new file or folder, delete the
  // selection (with the usual confirmation).
  const latest = useRef({ dir, go, selected, remove, setDialog });
  latest.current = { dir, go, selected, remove, setDialog };
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
        const { dir: at, go: open } = latest.current;
        if (!at) return false;
        open(parentPath(at));
        return true;
      }),
    ];
    if (canEdit) {
      list.push(
        key("Shift+N", msg`New file`, () => {
          latest.current.setDialog({ kind: "new", entry: "file" });
          return true;
        }),
        key("Shift+F", msg`New folder`, () => {
          latest.current.setDialog({ kind: "new", entry: "folder" });
          return true;
        }),
        key("Delete", msg`Delete`, () => {
          const names = [...latest.current.selected];
          if (!names.length) return false;
          void latest.current.remove(names);
          return true;
        }),
      );
    }
    return list;
  }, [canEdit]);
  useContextHotkeys(active && !editing && !dialog ? hotkeys : NO_HOTKEYS);

  const crumbs = breadcrumbs(dir);
  const ready = listing.shownDir === dir;
  const empty = ready && listing.state === "ready" && shown.every((e) => e.name === "..");
  const selectedNames = [...selected];
  const where = shownPath(dir);

  return (
    <div className="fm" data-testid="file-manager">
      {editing && (
        <Suspense fallback={<Spinner />}>
          <TextEditor
            key={editing.path}
            serverId={serverId}
            path={editing.path}
            size={editing.size}
            canEdit={canEdit}
            active={active}
            locale={locale}
            onClose={() => setEditing(undefined)}
            onSaved={refresh}
          />
        </Suspense>
      )}
      <div className="fm-browser" hidden={!!editing}>
        <div className="fm-bar">
          <nav className="fm-crumbs" aria-label={t`Folder path`} data-testid="file-crumbs">
            <ol>
              <li>
                <button
                  type="button"
                  className="btn-text fm-crumb"
                  ref={dir === "" ? currentCrumb : undefined}
                  aria-current={dir === "" ? "location" : undefined}
                  onClick={() => go("")}
                >
                  <FileIcon name="home" size={18} />
                  <span>
                    <Trans>Server folder</Trans>
                  </span>
                </button>
              </li>
              {crumbs.map((c) => (
                <li key={c.path}>
                  <FileIcon name="chevron" size={14} className="fm-crumb-sep flip-rtl" />
                  <button
                    type="button"
                    className="btn-text fm-crumb"
                    ref={c.path === dir ? currentCrumb : undefined}
                    aria-current={c.path === dir ? "location" : undefined}
                    onClick={() => go(c.path)}
                  >
                    {c.name}
                  </button>
                </li>
              ))}
            </ol>
          </nav>
          <div className="fm-tools">
            <button
              type="button"
              className={listing.refreshing ? "icon-btn is-busy" : "icon-btn"}
              aria-label={t`Refresh`}
              title={t`Refresh`}
              onClick={refresh}
              data-testid="file-refresh"
            >
              <FileIcon name="refresh" size={20} />
            </button>
            {canEdit && (
              <>
                <ToolButton
                  icon="folderPlus"
                  text={t`New folder`}
                  outline
                  onClick={() => setDialog({ kind: "new", entry: "folder" })}
                  testId="file-new-folder"
                />
                <ToolButton
                  icon="filePlus"
                  text={t`New file`}
                  outline
                  onClick={() => setDialog({ kind: "new", entry: "file" })}
                  testId="file-new-file"
                />
                <ToolButton
                  icon="upload"
                  text={t`Upload`}
                  title={t`Upload files`}
                  onClick={() => fileInput.current?.click()}
                  testId="file-upload"
                />
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  hidden
                  tabIndex={-1}
                  data-testid="file-upload-input"
                  onChange={(e) => {
                    const files = [...(e.currentTarget.files ?? [])];
                    e.currentTarget.value = "";
                    void upload(files);
                  }}
                />
              </>
            )}
          </div>
        </div>

        {canEdit && selected.size > 0 && (
          <div className="fm-selection" data-testid="file-selection">
            <span className="fm-selection-count">{plural(selected.size, { other: "# selected" })}</span>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => setDialog({ kind: "archive", names: selectedNames })}
              data-testid="file-archive-selected"
            >
              <FileIcon name="pack" size={16} />
              <Trans>Archive</Trans>
            </button>
            <button
              type="button"
              className="btn btn-outline color-error"
              onClick={() => void remove(selectedNames)}
              data-testid="file-delete-selected"
            >
              <FileIcon name="trash" size={16} />
              <Trans>Delete</Trans>
            </button>
            <button type="button" className="btn-text" onClick={() => setSelected(new Set())}>
              <Trans>Clear selection</Trans>
            </button>
          </div>
        )}

        <UploadList
          uploads={uploads.uploads}
          locale={locale}
          onCancel={uploads.cancel}
          onClear={uploads.clearFinished}
        />

        {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; Upload does the same by keyboard */}
        <div
          className={dragging ? "fm-drop is-dragging" : "fm-drop"}
          onDragEnter={onDragEnter}
          onDragOver={onDragOver}
          onDragLeave={onDragLeave}
          onDrop={onDrop}
          data-testid="file-drop"
        >
          {!ready || listing.state === "loading" ? (
            <Spinner />
          ) : listing.state === "missing" ? (
            <ListingMessage action={t`Go to the server folder`} onAction={() => go("")} testId="file-missing">
              <Trans>The folder {where} does not exist.</Trans>
            </ListingMessage>
          ) : listing.state === "failed" ? (
            <ListingMessage action={t`Try again`} onAction={refresh}>
              <Trans>The folder could not be loaded.</Trans>
            </ListingMessage>
          ) : (
            <FileTable
              entries={sorted}
              locale={locale}
              selectable={canEdit}
              selected={selected}
              onSelect={(name, on) =>
                setSelected((before) => {
                  const next = new Set(before);
                  if (on) next.add(name);
                  else next.delete(name);
                  return next;
                })
              }
              onSelectAll={(on) =>
                setSelected(on ? new Set(shown.filter((e) => e.name !== "..").map((e) => e.name)) : new Set())
              }
              sort={sort}
              onSort={setSort}
              primary={primary}
              actionsFor={actionsFor}
              empty={empty}
            />
          )}
          {dragging && (
            <div className="fm-drop-hint" aria-hidden="true">
              <FileIcon name="upload" size={28} />
              <Trans>Drop files to upload them into {where}</Trans>
            </div>
          )}
        </div>
        {canEdit && ready && listing.state === "ready" && (
          <p className="fm-foot muted small">
            <Trans>Files dropped onto the list are uploaded into this folder.</Trans>
          </p>
        )}
      </div>

      {dialog?.kind === "new" && (
        <NewEntryDialog
          kind={dialog.entry}
          dir={dir}
          taken={names}
          onSubmit={(name) => create(dialog.entry, name)}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog?.kind === "move" && (
        <MoveDialog
          dir={dir}
          name={dialog.name}
          onSubmit={(to) => move(dialog.name, to)}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog?.kind === "archive" && (
        <ArchiveDialog
          count={dialog.names.length}
          initialName={withArchiveSuffix(dialog.names.length === 1 ? dialog.names[0] : "archive", "zip")}
          taken={names}
          onSubmit={(name) => archive(dialog.names, name)}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog?.kind === "extract" && (
        <ExtractDialog
          dir={dir}
          name={dialog.name}
          onSubmit={(destination) => extract(dialog.name, destination)}
          onClose={() => setDialog(undefined)}
        />
      )}
    </div>
  );
}
