import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useState } from "react";
import {
  type Backup,
  backupDownloadUrl,
  createBackup,
  deleteBackup,
  listBackups,
  pinBackup,
  restoreBackup,
  verifyBackup,
} from "../../../api/backups";
import { usePolling } from "../../../app/usePolling";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import { TextField } from "../../../components/TextField";
import { toastError, toastSuccess } from "../../../components/toastStore";
import { intlLocale } from "../../../i18n/locales";
import { formatBytes, formatDateTime } from "../format";
import type { SectionProps } from "../sectionProps";
import { defaultBackupName } from "./backupName";
import { PolicyForm } from "./PolicyForm";
import "../../../components/controls.css";
import "./backups.css";

// The files inside a backup load only when a user opens them.
const BackupFiles = lazy(() => import("./BackupFiles"));

/** While any backup is being written the list is asked again this often, for its progress. */
const POLL_MS = 2000;

function Poll({ run }: { run: () => Promise<unknown> }) {
  usePolling(run, POLL_MS);
  return null;
}

function StateTag({ backup }: { backup: Backup }) {
  switch (backup.state) {
    case "creating":
      return (
        <span className="tag bk-state bk-creating">
          <Trans>Creating</Trans>
        </span>
      );
    case "failed":
      return (
        <span className="tag bk-state bk-failed">
          <Trans>Failed</Trans>
        </span>
      );
    default:
      return (
        <span className="tag bk-state bk-ready">
          <Trans>Ready</Trans>
        </span>
      );
  }
}

function CreateForm({ serverId, onCreated }: { serverId: string; onCreated: () => Promise<void> }) {
  const [name, setName] = useState(defaultBackupName);
  const [sending, setSending] = useState(false);
  const trimmed = name.trim();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed) return;
    setSending(true);
    try {
      await createBackup(serverId, trimmed);
      toastSuccess(t`Backup started`);
      setName(defaultBackupName());
    } catch {
      // the global handler said why (a running server, another backup under way)
    } finally {
      setSending(false);
    }
    await onCreated().catch(() => {});
  };
  return (
    <form className="inline-form bk-create" onSubmit={submit} data-testid="backup-create">
      <TextField
        label={t`Backup name`}
        value={name}
        onValue={setName}
        maxLength={100}
        autoComplete="off"
        required
      />
      <button type="submit" className="btn" disabled={sending || !trimmed}>
        <Trans>Create backup</Trans>
      </button>
    </form>
  );
}

/** Backups (spec §2.3): list, create with progress, download, restore and delete, each by scope. */
export default function BackupsSection({ server, can, active }: SectionProps) {
  const [backups, setBackups] = useState<Backup[]>();
  const [working, setWorking] = useState<{ id: number; action: "restore" | "delete" | "verify" | "pin" }>();
  const [browsing, setBrowsing] = useState<Backup>();
  const locale = intlLocale(i18n.locale);
  const id = server.id;

  const load = useCallback(async () => {
    setBackups(await listBackups(id));
  }, [id]);

  useEffect(() => {
    if (active) void load().catch(() => {});
  }, [active, load]);

  const restore = async (backup: Backup) => {
    const yes = await confirmAsync({
      title: t`Restore ${backup.name}?`,
      body: `${t`The server's current files are replaced by the ones in this backup. Files made or changed since then are lost.`} ${t`A running server is stopped first.`}`,
      confirm: { text: t`Restore`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setWorking({ id: backup.id, action: "restore" });
    try {
      await restoreBackup(id, backup.id);
      toastSuccess(t`Backup restored`);
    } catch {
      // the global handler said why; a failed restore leaves the files as they were
    } finally {
      setWorking(undefined);
    }
  };

  const verify = async (backup: Backup) => {
    setWorking({ id: backup.id, action: "verify" });
    try {
      const verdict = await verifyBackup(id, backup.id);
      if (verdict.ok) toastSuccess(t`The backup is intact`);
      else toastError(t`Verification failed: ${verdict.reason ?? ""}`);
    } catch {
      // the global handler said why
    } finally {
      setWorking(undefined);
    }
    await load().catch(() => {});
  };

  const pin = async (backup: Backup) => {
    setWorking({ id: backup.id, action: "pin" });
    try {
      await pinBackup(id, backup.id, !backup.pinned);
    } catch {
      // the global handler said why
    } finally {
      setWorking(undefined);
    }
    await load().catch(() => {});
  };

  const remove = async (backup: Backup) => {
    const yes = await confirmAsync({
      title: t`Delete ${backup.name}?`,
      body: t`The backup is removed from the node for good.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setWorking({ id: backup.id, action: "delete" });
    try {
      await deleteBackup(id, backup.id);
    } catch {
      // the global handler said why
    } finally {
      setWorking(undefined);
    }
    await load().catch(() => {});
  };

  const writing = !!backups?.some((b) => b.state === "creating");
  return (
    <div className="bk-section" data-testid="backups">
      {active && writing && <Poll run={load} />}
      {can("server.backup.create") && <CreateForm serverId={id} onCreated={load} />}
      {can("server.backup.view") && active && (
        <PolicyForm serverId={id} editable={can("server.backup.delete")} onSaved={load} />
      )}
      {!backups ? (
        <Spinner />
      ) : backups.length === 0 ? (
        <p className="muted bk-empty">
          <Trans>No backups yet.</Trans>
        </p>
      ) : (
        <ul className="bk-list">
          {backups.map((backup) => {
            const busy = working?.id === backup.id ? working.action : undefined;
            const ready = backup.state === "ready";
            return (
              <li key={backup.id} className="bk-item" data-testid="backup-item" data-state={backup.state}>
                <div className="bk-main">
                  <div className="bk-title">
                    <strong className="bk-name">{backup.name}</strong>
                    <StateTag backup={backup} />
                  </div>
                  <p className="muted small bk-meta">
                    <time dateTime={backup.createdAt}>{formatDateTime(backup.createdAt, locale)}</time>
                    {ready && <span>{formatBytes(backup.size, locale)}</span>}
                    {backup.pinned && (
                      <span className="tag bk-pinned" data-testid="backup-pinned">
                        <Trans>Pinned</Trans>
                      </span>
                    )}
                    {backup.whileRunning && (
                      <span className="tag bk-while-running" data-testid="backup-while-running">
                        <Trans>Taken while running</Trans>
                      </span>
                    )}
                    {!!backup.leftOut && <span>{t`Files left out: ${backup.leftOut}`}</span>}
                  </p>
                  {backup.lastVerification && (
                    <p
                      className={`small ${backup.lastVerification.ok ? "muted" : "bk-error"}`}
                      data-testid="backup-verification"
                    >
                      {backup.lastVerification.ok
                        ? t`Verified ${formatDateTime(backup.lastVerification.at, locale)}`
                        : t`Verification failed: ${backup.lastVerification.reason ?? ""}`}
                    </p>
                  )}
                  {backup.state === "creating" && (
                    <div className="bk-progress-row">
                      <div
                        className="bk-progress"
                        role="progressbar"
                        aria-label={t`Writing the backup`}
                        aria-valuetext={t`${formatBytes(backup.bytesWritten ?? 0, locale)} written`}
                      />
                      <span className="small" data-testid="backup-written">
                        <Trans>{formatBytes(backup.bytesWritten ?? 0, locale)} written</Trans>
                      </span>
                    </div>
                  )}
                  {backup.state === "failed" && backup.error && (
                    <p className="small bk-error">{backup.error}</p>
                  )}
                  {busy === "restore" && (
                    <p className="small bk-restoring" role="status">
                      <Trans>Restoring…</Trans>
                    </p>
                  )}
                </div>
                <div className="bk-actions">
                  {ready && (
                    <a
                      className="btn btn-outline btn-small"
                      href={backupDownloadUrl(id, backup.id)}
                      download
                      data-testid="backup-download"
                    >
                      <Trans>Download</Trans>
                    </a>
                  )}
                  {ready && (
                    <button
                      type="button"
                      className="btn btn-outline btn-small"
                      disabled={!!working}
                      onClick={() => void verify(backup)}
                      data-testid="backup-verify"
                    >
                      <Trans>Verify</Trans>
                    </button>
                  )}
                  {ready && can("server.backup.view") && (
                    <button
                      type="button"
                      className="btn btn-outline btn-small"
                      onClick={() => setBrowsing(backup)}
                      data-testid="backup-files-open"
                    >
                      <Trans>Files</Trans>
                    </button>
                  )}
                  {ready && can("server.backup.delete") && (
                    <button
                      type="button"
                      className="btn btn-outline btn-small"
                      disabled={!!working}
                      onClick={() => void pin(backup)}
                      data-testid="backup-pin"
                    >
                      {backup.pinned ? <Trans>Unpin</Trans> : <Trans>Pin</Trans>}
                    </button>
                  )}
                  {ready && can("server.backup.restore") && (
                    <button
                      type="button"
                      className="btn btn-outline btn-small"
                      disabled={!!working}
                      onClick={() => void restore(backup)}
                      data-testid="backup-restore"
                    >
                      <Trans>Restore</Trans>
                    </button>
                  )}
                  {backup.state !== "creating" && can("server.backup.delete") && (
                    <button
                      type="button"
                      className="btn btn-outline btn-small color-error"
                      disabled={!!working}
                      onClick={() => void remove(backup)}
                      data-testid="backup-delete"
                    >
                      <Trans>Delete</Trans>
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {browsing && (
        <Suspense fallback={<Spinner />}>
          <BackupFiles
            serverId={id}
            backup={browsing}
            canRestore={can("server.backup.restore")}
            onClose={() => setBrowsing(undefined)}
          />
        </Suspense>
      )}
    </div>
  );
}
