import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { updateSelf } from "../../api/self";
import { Panel } from "../../components/Panel";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { loadUser, user } from "../../state/session";

/** Username and e-mail, changed with the current password (spec §7: PUT /api/self). */
export function AccountSection({ canEdit }: { canEdit: boolean }) {
  const me = user.value;
  const [username, setUsername] = useState(me?.username ?? "");
  const [email, setEmail] = useState(me?.email ?? "");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const changed = !!me && (username.trim() !== me.username || email.trim().toLowerCase() !== me.email);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!me || !changed || !password || busy) return;
    setBusy(true);
    try {
      await updateSelf({ username: username.trim(), email: email.trim(), password });
      setPassword("");
      await loadUser();
      toastSuccess(t`Account details saved`);
    } catch {
      // the global handler said why (wrong password, name taken, …)
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Account</Trans>} className="self-section">
      <form className="self-form" onSubmit={submit} data-testid="account-form">
        <TextField
          label={t`Username`}
          value={username}
          onValue={setUsername}
          autoComplete="username"
          maxLength={100}
          disabled={!canEdit}
          data-testid="self-username"
        />
        <TextField
          label={t`Email`}
          type="email"
          value={email}
          onValue={setEmail}
          autoComplete="email"
          maxLength={255}
          disabled={!canEdit}
          data-testid="self-email"
        />
        {canEdit && changed && (
          <TextField
            label={t`Current password`}
            type="password"
            value={password}
            onValue={setPassword}
            autoComplete="current-password"
            required
            hint={t`Needed to change your username or email.`}
            data-testid="account-password"
          />
        )}
        {canEdit && (
          <div className="self-actions">
            <button
              type="submit"
              className="btn"
              disabled={busy || !changed || !password}
              data-testid="account-save"
            >
              <Trans>Save</Trans>
            </button>
          </div>
        )}
      </form>
    </Panel>
  );
}
