import { t } from "@lingui/core/macro";
import { Plural, Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { defaultServerUserScopes } from "../../../../server/contract/scopes.ts";
import {
  type GrantOutcome,
  grantServerUser,
  isPendingInvitee,
  listServerUsers,
  removeServerUser,
  type ServerUser,
} from "../../../api/serverUsers";
import { useLoad } from "../../../app/useLoad";
import { validEmail } from "../../../app/validation";
import { CopyField } from "../../../components/CopyField";
import { confirmAsync } from "../../../components/confirmStore";
import { Icon } from "../../../components/icons";
import { Spinner } from "../../../components/Spinner";
import { ScreenIcon } from "../../../components/screenIcons";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";
import { isAdmin } from "../../../state/scopes";
import { user as signedIn } from "../../../state/session";
import { LoadFailed } from "../LoadFailed";
import { grantableBy, ScopePicker } from "../scopes/ScopePicker";
import { alwaysGranted } from "../scopes/scopeLabels";
import type { SectionProps } from "../sectionProps";
import type { ServerCan } from "../serverScopes";
import "../../../components/controls.css";
import "../entry-list.css";
import "./users.css";

// A new user starts with what users named in the wizard get (and what the API gives when a
// client sends no scopes): one default, server/contract/scopes.ts.

/** Whether two scope lists grant the same (server.view is always part of both). */
function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set([alwaysGranted, ...a]);
  const y = new Set([alwaysGranted, ...b]);
  return x.size === y.size && [...x].every((s) => y.has(s));
}

const invitationMailed = (email: string) => t`An invitation was e-mailed to ${email}`;

/** An invitation the panel did not e-mail: its link (administrators only), or who must send it. */
interface Unsent {
  email: string;
  url?: string;
}

/** What to tell after a grant: an unsent invitation to show, else whether a mail went out. */
function unsentOf(email: string, outcome: GrantOutcome): Unsent | undefined {
  if (outcome.invite === "link") return { email, url: outcome.url };
  if (outcome.invite === "adminMustSend") return { email };
  return undefined;
}

/**
 * An invitation that was not e-mailed. An administrator gets the link to hand over; anyone else
 * gets none, since the link signs in as that account: an administrator must send it.
 */
function UnsentInvitation({ email, url, onClose }: Unsent & { onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new notice is brought into view
  useEffect(() => {
    box.current?.scrollIntoView({ block: "nearest" });
  }, [url, email]);
  return (
    <section
      ref={box}
      className="invite-link"
      data-testid={url ? "invite-link" : "invite-admin-needed"}
      aria-live="polite"
    >
      <h3>
        <Trans>Invitation for {email}</Trans>
      </h3>
      {url ? (
        <>
          <p className="small">
            <Trans>
              It was not e-mailed: give this link to the person yourself. With it they choose a username and
              password. It works once, for 7 days.
            </Trans>
          </p>
          <CopyField
            label={t`Invite link`}
            labelHidden
            value={url}
            copyLabel={t`Copy the invite link`}
            testId="invite-url"
          />
        </>
      ) : (
        <p className="small">
          <Trans>
            The permissions are saved, but this panel could not e-mail the invitation, and only an
            administrator may hand out invite links. Ask an administrator to send it: they find {email} in
            this list.
          </Trans>
        </p>
      )}
      <div className="form-end">
        <button type="button" className="btn color-neutral btn-small" onClick={onClose}>
          <Trans>Done</Trans>
        </button>
      </div>
    </section>
  );
}

function AddUser({
  serverId,
  can,
  onAdded,
}: {
  serverId: string;
  can: ServerCan;
  onAdded: (email: string, outcome: GrantOutcome) => void;
}) {
  const editable = grantableBy(can);
  const [email, setEmail] = useState("");
  const initial = () => defaultServerUserScopes.filter((s) => s === alwaysGranted || editable(s));
  const [scopes, setScopes] = useState(initial);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const ok = validEmail(email);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!ok || busy) return;
    setBusy(true);
    try {
      const address = email.trim();
      const outcome = await grantServerUser(serverId, address, scopes);
      onAdded(address.toLowerCase(), outcome);
      setEmail("");
      setTried(false);
      // The next person starts from the usual set again, not from hidden choices for this one.
      setScopes(initial());
      setChoosing(false);
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="settings-block add-user" onSubmit={submit} noValidate data-testid="add-user">
      <h2 className="small-title">
        <Trans>Add a user</Trans>
      </h2>
      <p className="muted small">
        {isAdmin.value ? (
          <Trans>
            Someone without an account here is invited by e-mail, or, when this panel sends no mail, you get a
            link to give them. With it they choose their password.
          </Trans>
        ) : (
          <Trans>
            Someone without an account here is invited by e-mail. When this panel sends no mail, an
            administrator must send them their invite link.
          </Trans>
        )}
      </p>
      <div className="inline-form">
        <TextField
          label={t`Email`}
          type="email"
          autoComplete="off"
          value={email}
          onValue={setEmail}
          invalid={tried && !ok}
          hint={tried && !ok ? t`Enter a valid email address` : undefined}
        />
        <button type="submit" className="btn" disabled={busy} data-testid="add-user-submit">
          <ScreenIcon name="plus" size={18} />
          <Trans>Add</Trans>
        </button>
      </div>
      <details
        className="add-user-scopes"
        open={choosing}
        onToggle={(e) => setChoosing((e.currentTarget as HTMLDetailsElement).open)}
      >
        <summary>
          <Trans>Permissions ({scopes.length} chosen)</Trans>
        </summary>
        <ScopePicker value={scopes} onChange={setScopes} editable={editable} testId="add-user-scopes" />
      </details>
    </form>
  );
}

function UserEntry({
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

/** Users of this server (spec §2.3): entries expand to their permissions, grouped. */
export default function UsersSection({ server, can }: SectionProps) {
  const loaded = useLoad(() => listServerUsers(server.id), [server.id]);
  const { data: users, reload } = loaded;
  // A failed read keeps what was shown until an answer (retry, or the next change).
  const failed = loaded.error !== undefined;
  const [open, setOpen] = useState<string>();
  const [invite, setInvite] = useState<Unsent>();

  const mayAdd = can("server.users.create") || can("server.users.edit");

  return (
    <div className="users-section">
      {invite && <UnsentInvitation {...invite} onClose={() => setInvite(undefined)} />}
      {mayAdd && (
        <AddUser
          serverId={server.id}
          can={can}
          onAdded={async (email, outcome) => {
            setOpen(email);
            reload();
            const unsent = unsentOf(email, outcome);
            if (unsent) setInvite(unsent);
            // No link: an existing user was added, or an invitee was e-mailed; the entry tells which.
            else if (await isPendingInvitee(server.id, email)) toastSuccess(invitationMailed(email));
            else toastSuccess(t`${email} added`);
          }}
        />
      )}
      <section className="settings-block">
        <h2 className="small-title">
          <Trans>Users of this server</Trans>
        </h2>
        {failed ? (
          <LoadFailed onRetry={() => reload()}>
            <Trans>The users could not be loaded.</Trans>
          </LoadFailed>
        ) : !users ? (
          <Spinner />
        ) : users.length === 0 ? (
          <p className="muted">
            <Trans>
              No user has permissions on this server of their own yet. Administrators see it anyway.
            </Trans>
          </p>
        ) : (
          <ul className="entry-list" data-testid="server-users">
            {users.map((u) => (
              <UserEntry
                key={u.email}
                serverId={server.id}
                entry={u}
                can={can}
                expanded={open === u.email}
                onToggle={() => setOpen(open === u.email ? undefined : u.email)}
                onChanged={() => reload()}
                onInvite={setInvite}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
