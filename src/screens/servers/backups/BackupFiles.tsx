import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import { type Backup, type BackupFileEntry, listBackupFiles, restoreBackup } from "../../../api/backups";
import { confirmAsync } from "../../../components/confirmStore";
import { Dialog } from "../../../components/Dialog";
import { Spinner } from "../../../components/Spinner";
import { toastSuccess } from "../../../components/toastStore";
import { intlLocale } from "../../../i18n/locales";
import { formatBytes } from "../format";
import "./backup-files.css";

// The files inside one backup, as a tree read folder by folder from the archive; ticked files
// and folders are put back alone (issue 38). Loaded only when opened: it stays out of the
// Backups section's chunk.

type Folder = { state: "loading" } | { state: "failed" } | { state: "ready"; entries: BackupFileEntry[] };

const join = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** Folders first, then by name, whatever order the node answered in. */
const ordered = (entries: BackupFileEntry[]) =>
  [...entries].sort(
    (a, b) => Number(b.type === "directory") - Number(a.type === "directory") || a.name.localeCompare(b.name),
  );

const noteIndent = (depth: number) => ({ paddingInlineStart: `${depth * 1.25 + 0.75}rem` });

/** Whether `path` is `folder` itself or lies inside it. */
const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

interface Props {
  serverId: string;
  backup: Backup;
  /** The user holds server.backup.restore: the entries can be ticked and put back. */
  canRestore: boolean;
  onClose: () => void;
}

export default function BackupFiles({ serverId, backup, canRestore, onClose }: Props) {
  const [folders, setFolders] = useState<Record<string, Folder>>({});
  const [open, setOpen] = useState<Set<string>>(() => new Set([""]));
  const [picked, setPicked] = useState<string[]>([]);
  const [restoring, setRestoring] = useState(false);
  const locale = intlLocale(i18n.locale);

  const load = useCallback(
    async (folder: string) => {
      setFolders((f) => ({ ...f, [folder]: { state: "loading" } }));
      try {
        // Shown in place, not as a toast: the view says which folder could not be read.
        const entries = await listBackupFiles(serverId, backup.id, folder, { exempt: true });
        setFolders((f) => ({ ...f, [folder]: { state: "ready", entries: ordered(entries) } }));
      } catch {
        setFolders((f) => ({ ...f, [folder]: { state: "failed" } }));
      }
    },
    [serverId, backup.id],
  );

  useEffect(() => {
    void load("");
  }, [load]);

  const toggleOpen = (folder: string) => {
    const next = new Set(open);
    if (next.has(folder)) next.delete(folder);
    else {
      next.add(folder);
      if (folders[folder]?.state !== "ready") void load(folder);
    }
    setOpen(next);
  };

  // A ticked folder stands for everything in it: what was ticked inside it goes.
  const togglePick = (path: string) =>
    setPicked((p) =>
      p.includes(path) ? p.filter((x) => x !== path) : [...p.filter((x) => !within(x, path)), path],
    );

  const restore = async () => {
    const yes = await confirmAsync({
      title: t`Restore the selected files?`,
      body: `${t`Only these files and folders are replaced by the ones in ${backup.name}: ${picked.join(", ")}. Everything else stays as it is.`} ${t`A running server is stopped first.`}`,
      confirm: { text: t`Restore`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setRestoring(true);
    try {
      await restoreBackup(serverId, backup.id, picked);
      toastSuccess(t`Selected files restored`);
      setPicked([]);
    } catch {
      // the global handler said why; a failed restore leaves the files as they were
    } finally {
      setRestoring(false);
    }
  };

  const renderFolder = (folder: string, depth: number) => {
    const state = folders[folder];
    if (!state || state.state === "loading") {
      return (
        <li className="bf-note" style={noteIndent(depth)}>
          <Spinner />
        </li>
      );
    }
    if (state.state === "failed") {
      return (
        <li className="bf-note bf-error" style={noteIndent(depth)}>
          <span role="alert">
            <Trans>This folder could not be read from the backup.</Trans>
          </span>{" "}
          <button type="button" className="btn btn-outline btn-small" onClick={() => void load(folder)}>
            <Trans>Try again</Trans>
          </button>
        </li>
      );
    }
    if (state.entries.length === 0) {
      return (
        <li className="bf-note muted" style={noteIndent(depth)}>
          {folder ? <Trans>This folder is empty.</Trans> : <Trans>This backup holds no files.</Trans>}
        </li>
      );
    }
    return state.entries.map((entry) => {
      const path = join(folder, entry.name);
      const isFolder = entry.type === "directory";
      const expanded = isFolder && open.has(path);
      const byParent = picked.some((p) => p !== path && within(path, p));
      return (
        <li key={path} className="bf-entry-wrap">
          <div
            className="bf-entry"
            data-testid="backup-file"
            data-path={path}
            style={{ paddingInlineStart: `${depth * 1.25}rem` }}
          >
            {isFolder ? (
              <button
                type="button"
                className="bf-toggle"
                aria-expanded={expanded}
                aria-label={expanded ? t`Collapse ${entry.name}` : t`Expand ${entry.name}`}
                onClick={() => toggleOpen(path)}
              >
                {expanded ? "▾" : "▸"}
              </button>
            ) : (
              <span className="bf-toggle" aria-hidden="true" />
            )}
            {canRestore ? (
              <label className="bf-label">
                <input
                  type="checkbox"
                  checked={byParent || picked.includes(path)}
                  disabled={byParent || restoring}
                  onChange={() => togglePick(path)}
                />
                <span className={isFolder ? "bf-name bf-folder" : "bf-name"}>{entry.name}</span>
              </label>
            ) : (
              <span className={isFolder ? "bf-name bf-folder" : "bf-name"}>{entry.name}</span>
            )}
            <span className="bf-size muted small">
              {isFolder ? t`Folder` : entry.type === "symlink" ? t`Link` : formatBytes(entry.size, locale)}
            </span>
          </div>
          {expanded && <ul className="bf-tree">{renderFolder(path, depth + 1)}</ul>}
        </li>
      );
    });
  };

  const count = picked.length;
  return (
    <Dialog
      title={t`Files in ${backup.name}`}
      onClose={onClose}
      wide
      testId="backup-files"
      actions={
        canRestore ? (
          <>
            <span className="bf-count small muted" aria-live="polite">
              {t`Selected: ${count}`}
            </span>
            <button
              type="button"
              className="btn color-error"
              disabled={count === 0 || restoring}
              onClick={() => void restore()}
              data-testid="backup-restore-selected"
            >
              {restoring ? <Trans>Restoring…</Trans> : <Trans>Restore selected</Trans>}
            </button>
          </>
        ) : undefined
      }
    >
      <ul className="bf-tree bf-root">{renderFolder("", 0)}</ul>
    </Dialog>
  );
}
