import { t } from "@lingui/core/macro";
import { Plural, Trans } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import { grantServerUser, removeServerUser, type ServerUser } from "../../../api/serverUsers";
import { confirmAsync } from "../../../components/confirmStore";
import { Icon } from "../../../components/icons";
import { ScreenIcon } from "../../../components/screenIcons";
import { toastSuccess } from "../../../components/toastStore";
import { isAdmin } from "../../../state/scopes";
import { user as signedIn } from "../../../state/session";
import { grantableBy, ScopePicker } from "../scopes/ScopePicker";
import { alwaysGranted } from "../scopes/scopeLabels";
import type { ServerCan } from "../serverScopes";
import { invitationMailed, type Unsent, unsentOf } from "./invitation";

/** Whether two scope lists grant the same (server.view is always part of both). */
function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set([alwaysGranted, ...a]);
  const y = new Set([alwaysGranted, ...b]);
  return x.size === y.size && [...x].every((s) => y.has(s));
}

/** One user of the server: a head that expands to their permissions, to change, save or remove. */
export function UserEntry({
  serverId,
  entry,
  can,
  expanded,
  onToggle,
  onChanged,
  onInvite,
}: {
  serverId: string;
  entry: ServerUser;
  can: ServerCan;
  expanded: boolean;
  onToggle: () => void;
  onChanged: () => void;
  onInvite: (unsent: Unsent) => void;
}) {
  const bodyId = useId();
  const canEdit = can("server.users.edit");
  const editable = canEdit ? grantableBy(can) : () => false;
  const [draft, setDraft] = useState(entry.scopes);
  const [busy, setBusy] = useState(false);
  const me = signedIn.value?.email === entry.email;

  useEffect(() => setDraft(entry.scopes), [entry.scopes]);
  const changed = !sameScopes(draft, entry.scopes);

  const save = async () => {
    setBusy(true);
    try {
      const unsent = unsentOf(entry.email, await grantServerUser(serverId, entry.email, draft));
      toastSuccess(t`Permissions of ${entry.username} saved`);
      if (unsent) onInvite(unsent);
      else if (entry.invited) toastSuccess(invitationMailed(entry.email));
      onChanged();
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  const newLink = async () => {
    setBusy(true);
    try {
      const unsent = unsentOf(entry.email, await grantServerUser(serverId, entry.email, entry.scopes));
      if (unsent) onInvite(unsent);
      else toastSuccess(invitationMailed(entry.email));
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const yes = await confirmAsync({
      title: me ? t`Leave this server?` : t`Remove ${entry.username} from this server?`,
      body: me
        ? t`You lose your access to this server. Someone who manages its users can add you again.`
        : t`They lose their access to this server. Their account stays.`,
      confirm: { text: t`Remove`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setBusy(true);
    try {
      await removeServerUser(serverId, entry.email);
      toastSuccess(t`${entry.username} removed from this server`);
      onChanged();
    } catch {
      setBusy(false);
    }
  };

  const count = new Set([alwaysGranted, ...entry.scopes]).size;
  return (
    <li
      className={expanded ? "user-entry open" : "user-entry"}
      data-testid="server-user"
      data-email={entry.email}
    >
      <button
        type="button"
        className="user-entry-head"
        aria-expanded={expanded}
        aria-controls={bodyId}
        onClick={onToggle}
      >
        <span className="user-entry-main">
          <span className="user-entry-name">
            {entry.username}
            {me && (
              <span className="tag">
                <Trans>you</Trans>
              </span>
            )}
            {entry.invited && (
              <span className="tag tag-invited">
                <Trans>invited</Trans>
              </span>
            )}
          </span>
          <span className="user-entry-email muted small">{entry.email}</span>
        </span>
        <span className="user-entry-count muted small">
          {entry.scopes.includes("server.admin") ? (
            <Trans>all permissions</Trans>
          ) : (
            <Plural value={count} one="# permission" other="# permissions" />
          )}
        </span>
        <Icon name="chevronRight" size={20} className="user-entry-chevron" />
      </button>
      {expanded && (
        <div className="user-entry-body" id={bodyId}>
          <ScopePicker value={draft} onChange={setDraft} editable={editable} testId="user-scopes" />
          {!canEdit && (
            <p className="muted small">
              <Trans>You may see these permissions but not change them.</Trans>
            </p>
          )}
          <div className="form-end user-entry-actions">
            {can("server.users.delete") && (
              <button
                type="button"
                className="btn btn-outline color-error"
                disabled={busy}
                onClick={() => void remove()}
                data-testid="remove-user"
              >
                <ScreenIcon name="trash" size={18} />
                {me ? <Trans>Leave</Trans> : <Trans>Remove</Trans>}
              </button>
            )}
            {canEdit && entry.invited && (
              <button
                type="button"
                className="btn color-neutral"
                disabled={busy}
                onClick={() => void newLink()}
              >
                {isAdmin.value ? <Trans>New invite link</Trans> : <Trans>Send the invitation again</Trans>}
              </button>
            )}
            {canEdit && (
              <>
                <button
                  type="button"
                  className="btn color-neutral"
                  disabled={busy || !changed}
                  onClick={() => setDraft(entry.scopes)}
                >
                  <Trans>Revert</Trans>
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={busy || !changed}
                  onClick={() => void save()}
                  data-testid="save-user"
                >
                  <ScreenIcon name="save" size={18} />
                  <Trans>Save</Trans>
                </button>
              </>
            )}
          </div>
        </div>
      )}
    </li>
  );
}
