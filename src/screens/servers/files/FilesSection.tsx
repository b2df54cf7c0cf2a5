import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Spinner } from "../../../components/Spinner";
import { intlLocale } from "../../../i18n/locales";
import type { SectionProps } from "../sectionProps";
import { FileTable } from "./FileTable";
import { FileToolbar } from "./FileToolbar";
import { FileIcon } from "./fileIcons";
import { type OpenDialog, OpenFileDialog } from "./OpenFileDialog";
import { fileOperations } from "./operations";
import { dirFromSearch, normalizePath, searchWithDir, shownPath } from "./paths";
import { primaryAction, type RowContext, rowActions } from "./rowActions";
import { SelectionBar } from "./SelectionBar";
import { allOrNone, keepPresent, NOTHING, type Selection, toggled } from "./selection";
import { type SortOrder, sortEntries } from "./sorting";
import { UploadList } from "./UploadList";
import { useFileDrop } from "./useFileDrop";
import { useFileHotkeys } from "./useFileHotkeys";
import { useListing } from "./useListing";
import { useUploads } from "./useUploads";
import "./files.css";

// The editor is its own chunk: browsing never loads it.
const TextEditor = lazy(() => import("./TextEditor"));

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
export default function FilesSection({ server, can, active }: SectionProps) {
  const serverId = server.id;
  const canEdit = can("server.files.edit");
  const locale = intlLocale(i18n.locale);
  const [dir, setDir] = useState(() => dirFromSearch(location.search));
  const [sort, setSort] = useState<SortOrder>({ key: "name", descending: false });
  const [selected, setSelected] = useState<Selection>(NOTHING);
  const [dialog, setDialog] = useState<OpenDialog>();
  const [editing, setEditing] = useState<{ path: string; size?: number }>();
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
  useEffect(() => setSelected((before) => keepPresent(before, names)), [names]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the folder changes
  useEffect(() => setSelected(NOTHING), [dir]);

  // After entering a folder, focus would be lost with the row that was clicked: put it on the path.
  useEffect(() => {
    if (listing.shownDir !== dir || !active || !navigated.current) return;
    const focused = document.activeElement;
    if (!focused || focused === document.body) currentCrumb.current?.focus();
  }, [listing.shownDir, dir, active]);

  const ops = fileOperations({
    serverId,
    dir,
    names,
    isFolder: (name) => shown.find((e) => e.name === name)?.isFile === false,
    canEdit,
    refresh,
    clearSelection: () => setSelected(NOTHING),
    openEditor: setEditing,
    go,
    queueUploads: uploads.add,
  });
  const openNew = (entry: "folder" | "file") => setDialog({ kind: "new", entry });
  const rows: RowContext = {
    serverId,
    dir,
    canEdit,
    on: {
      open: go,
      edit: setEditing,
      move: (name) => setDialog({ kind: "move", name }),
      extract: (name) => setDialog({ kind: "extract", name }),
      remove: (name) => void ops.remove([name]),
    },
  };
  const drop = useFileDrop(canEdit, (files) => void ops.upload(files));
  useFileHotkeys(active && !editing && !dialog, canEdit, {
    dir,
    go,
    selected,
    remove: (targets) => void ops.remove(targets),
    openNew,
  });

  const ready = listing.shownDir === dir;
  const empty = ready && listing.state === "ready" && shown.every((e) => e.name === "..");
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
        <FileToolbar
          dir={dir}
          go={go}
          currentCrumb={currentCrumb}
          canEdit={canEdit}
          refreshing={listing.refreshing}
          onRefresh={refresh}
          onNew={openNew}
          onUpload={(files) => void ops.upload(files)}
        />

        {canEdit && selected.size > 0 && (
          <SelectionBar
            selected={selected}
            onArchive={() => setDialog({ kind: "archive", names: [...selected] })}
            onDelete={() => void ops.remove([...selected])}
            onClear={() => setSelected(NOTHING)}
          />
        )}

        <UploadList
          uploads={uploads.uploads}
          locale={locale}
          onCancel={uploads.cancel}
          onClear={uploads.clearFinished}
        />

        {/* Dropping is a shortcut; Upload does the same by keyboard. */}
        <div
          className={drop.dragging ? "fm-drop is-dragging" : "fm-drop"}
          {...drop.handlers}
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
              onSelect={(name, on) => setSelected((before) => toggled(before, name, on))}
              onSelectAll={(on) => setSelected(allOrNone(shown, on))}
              sort={sort}
              onSort={setSort}
              primary={(entry) => primaryAction(rows, entry)}
              actionsFor={(entry) => rowActions(rows, entry)}
              empty={empty}
            />
          )}
          {drop.dragging && (
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

      {dialog && (
        <OpenFileDialog
          dialog={dialog}
          dir={dir}
          taken={names}
          actions={ops}
          onClose={() => setDialog(undefined)}
        />
      )}
    </div>
  );
}
