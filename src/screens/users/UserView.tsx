import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import { deleteUser, getUser, getUserScopes, setUserScopes, type User, updateUser } from "../../api/users";
import type { ScreenProps } from "../../app/routes";
import { useDraft } from "../../app/useDraft";
import { useLoad } from "../../app/useLoad";
import { confirmAsync } from "../../components/confirmStore";
import { NotPermitted } from "../../components/NotPermitted";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { LastKnownNote } from "../../offline/LastKnownNote";
import { offlineReason } from "../../offline/NeedsNetwork";
import { NotKeptOffline } from "../../offline/NotKeptOffline";
import { online } from "../../offline/network";
import { signedInUser as deviceAccount } from "../../offline/owner";
import { useKeptDetail } from "../../offline/useKeptDetail";
import { hasScope } from "../../state/scopes";
import { user as signedInUser } from "../../state/session";
import { NewPasswordField } from "../auth/AccountFields";
import { DeleteButton } from "../DeleteButton";
import { ScopePicker } from "../servers/scopes/ScopePicker";
import { globalScopeGroups } from "./globalScopeLabels";
import { RolesPanel } from "./RolesPanel";
import "../../components/screen-head.css";
import "./users.css";

/** Username and e-mail, changed by someone with users.info.edit. */
function DetailsPanel({
  user,
  offline,
  onSaved,
}: {
  user: User;
  offline: boolean;
  onSaved: (u: User) => void;
}) {
  const [username, setUsername] = useState(user.username);
  const [email, setEmail] = useState(user.email);
  const [busy, setBusy] = useState(false);
  const canEdit = hasScope("users.info.edit");
  const changed = username.trim() !== user.username || email.trim() !== user.email;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !changed) return;
    setBusy(true);
    try {
      const next = { username: username.trim(), email: email.trim() };
      await updateUser(user.id, next);
      onSaved({ ...user, ...next });
      toastSuccess(t`Saved`);
    } catch {
      // the global handler says why
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Details</Trans>} className="user-details">
      <form className="user-form" onSubmit={save} data-testid="user-details">
        <TextField
          label={t`Username`}
          value={username}
          onValue={setUsername}
          readOnly={!canEdit || offline}
          maxLength={100}
          autoComplete="off"
          name="username"
        />
        <TextField
          label={t`E-mail`}
          type="email"
          value={email}
          onValue={setEmail}
          readOnly={!canEdit || offline}
          maxLength={255}
          autoComplete="off"
          name="email"
        />
        <p className="muted small">
          {user.otpActive ? (
            <Trans>Two-factor sign-in is on.</Trans>
          ) : (
            <Trans>Two-factor sign-in is off.</Trans>
          )}
        </p>
        {canEdit && (
          <div className="form-actions">
            <button
              type="submit"
              className="btn"
              disabled={busy || !changed || offline}
              title={offline ? offlineReason() : undefined}
            >
              <ScreenIcon name="save" size={18} />
              <Trans>Save</Trans>
            </button>
          </div>
        )}
      </form>
    </Panel>
  );
}

/** A new password set for the user; it signs them out everywhere. */
function PasswordPanel({ user, offline }: { user: User; offline: boolean }) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !password) return;
    setBusy(true);
    try {
      await updateUser(user.id, { password });
      setPassword("");
      toastSuccess(t`Password changed`);
    } catch {
      // the global handler says why
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Password</Trans>} className="user-password">
      <form className="user-form" onSubmit={save} data-testid="user-password">
        <NewPasswordField
          label={t`New password`}
          value={password}
          onValue={setPassword}
          minLength={8}
          maxLength={1024}
          hint={t`At least 8 characters. The user is signed out everywhere.`}
          name="new-password"
          readOnly={offline}
        />
        <div className="form-actions">
          <button
            type="submit"
            className="btn"
            disabled={busy || !password || offline}
            title={offline ? offlineReason() : undefined}
          >
            <ScreenIcon name="save" size={18} />
            <Trans>Set password</Trans>
          </button>
        </div>
      </form>
    </Panel>
  );
}

/** The user's global scopes, grouped; an editor who is not an administrator toggles only scopes they hold. */
function ScopesPanel({ user, offline }: { user: User; offline: boolean }) {
  // Not kept on the device: offline there is nothing to show (what was shown stays).
  const load = useLoad(!offline && (() => getUserScopes(user.id)), [user.id, offline], { keep: true });
  const { data: saved, setData: setSaved } = load;
  const failed = load.error !== undefined && !load.loading;
  const [value, setValue] = useDraft(saved ?? [], saved);
  const [busy, setBusy] = useState(false);
  const canEdit = hasScope("users.perms.edit");

  const changed = saved !== undefined && [...value].sort().join() !== [...saved].sort().join();

  const save = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await setUserScopes(user.id, value);
      // What the server kept (it ignores scopes the editor may not toggle).
      const kept = await getUserScopes(user.id);
      setSaved(kept);
      setValue(kept);
      toastSuccess(t`Permissions saved`);
    } catch {
      // the global handler says why (e.g. the last administrator)
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Permissions</Trans>} className="user-scopes">
      {offline && saved === undefined ? (
        <p className="muted" data-testid="scopes-offline">
          {offlineReason()}
        </p>
      ) : failed ? (
        <p className="muted">
          <Trans>The permissions could not be loaded.</Trans>
        </p>
      ) : saved === undefined ? (
        <Spinner />
      ) : (
        <>
          <ScopePicker
            value={value}
            onChange={setValue}
            editable={(scope) => canEdit && !offline && hasScope(scope)}
            groups={globalScopeGroups}
            alwaysOn={null}
            testId="user-scopes"
          />
          {canEdit && (
            <div className="form-actions">
              <button
                type="button"
                className="btn"
                onClick={save}
                disabled={busy || !changed || offline}
                title={offline ? offlineReason() : undefined}
              >
                <ScreenIcon name="save" size={18} />
                <Trans>Save permissions</Trans>
              </button>
            </div>
          )}
        </>
      )}
    </Panel>
  );
}

const readUser = (id: number) => getUser(id, { exempt: [400, 404] });

export default function UserView({ params }: ScreenProps) {
  const id = Number(params.id);
  const allowed = hasScope("users.info.view");
  const {
    item: user,
    setItem: setUser,
    missing,
    kept,
  } = useKeptDetail("users", id, allowed && Number.isInteger(id) && id >= 1, readUser);
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();

  if (!allowed) return <NotPermitted />;
  if (missing) {
    return (
      <Panel title={<Trans>User not found</Trans>}>
        <p>
          <Trans>There is no user with this id.</Trans>
        </p>
        <Link href="/users">
          <Trans>Back to the users</Trans>
        </Link>
      </Panel>
    );
  }
  if (!user && kept === "none") {
    return (
      <NotKeptOffline back="/users">
        <Trans>Back to the users</Trans>
      </NotKeptOffline>
    );
  }
  const shown = user ?? (kept !== "none" ? kept?.value : undefined);
  if (!shown) return <Spinner />;
  // Offline (a kept copy, or the panel lost while open): shown, but nothing is changed.
  const offline = !user || !online.value;

  // (offline the session is not read: the account this device keeps data for is the signed-in one)
  const isSelf = (signedInUser.value?.id ?? deviceAccount()) === shown.id;
  const remove = async () => {
    if (!user) return;
    const yes = await confirmAsync({
      title: t`Delete user ${shown.username}?`,
      body: t`They are signed out at once, their OAuth clients stop working and they lose access to every server. This cannot be undone.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setDeleting(true);
    try {
      await deleteUser(user.id);
      toastSuccess(t`User ${shown.username} deleted`);
      navigate("/users");
    } catch {
      // the global handler says why
      setDeleting(false);
    }
  };

  return (
    <div className="user-view">
      <Link href="/users" className="back-link">
        <ScreenIcon name="back" size={18} className="flip-rtl" />
        <Trans>Users</Trans>
      </Link>
      <header className="user-head">
        <div className="user-head-main">
          <h1 data-testid="user-title">{shown.username}</h1>
          <p className="muted">{shown.email}</p>
        </div>
        {hasScope("users.info.edit") && !isSelf && (
          <DeleteButton onClick={remove} busy={deleting} offline={offline} />
        )}
      </header>
      {!user && <LastKnownNote at={kept !== "none" ? kept?.at : undefined} />}
      <div className="user-columns">
        <DetailsPanel key={`d${shown.id}`} user={shown} offline={offline} onSaved={setUser} />
        {hasScope("users.perms.view") && <ScopesPanel key={`s${shown.id}`} user={shown} offline={offline} />}
        {hasScope("admin") && <RolesPanel key={`r${shown.id}`} user={shown} offline={offline} />}
        {hasScope("users.info.edit") && <PasswordPanel key={`p${shown.id}`} user={shown} offline={offline} />}
      </div>
    </div>
  );
}
