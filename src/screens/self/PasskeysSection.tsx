import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useState } from "react";
import { isApiError } from "../../api/errors";
import {
  listPasskeys,
  type PasskeyView,
  passkeysSupported,
  registerPasskey,
  removePasskey,
  renamePasskey,
} from "../../api/passkeys";
import { confirmAsync } from "../../components/confirmStore";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastError, toastSuccess } from "../../components/toastStore";
import { loadUser, twoFactorRequired } from "../../state/session";
import "../oauth/oauth-clients.css";
import "../servers/entry-list.css";

/**
 * The user's passkeys (issue 39): sign in with one alone, or use one after the password. Several
 * per account, each named (where it lives: "Laptop", "Phone"), renamed and removed here.
 */
export function PasskeysSection() {
  const [passkeys, setPasskeys] = useState<PasskeyView[]>();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ id: number; name: string }>();

  const reload = async () => {
    try {
      setPasskeys(await listPasskeys());
    } catch {
      // reported globally
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the section mounts
  useEffect(() => {
    void reload();
  }, []);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || busy) return;
    setBusy(true);
    try {
      const made = await registerPasskey(name.trim());
      toastSuccess(t`Passkey ${made.name} added`);
      setName("");
      // A passkey is a second step after the password: an account held to enrol is enrolled now,
      // and the panel answers everything again (guard.ts).
      if (twoFactorRequired.value) {
        twoFactorRequired.value = false;
        void loadUser();
      }
      await reload();
    } catch (err) {
      // An API refusal was shown by the global handler; the browser's own (cancelled, none made) here.
      if (!isApiError(err)) toastError(t`No passkey was made.`);
    } finally {
      setBusy(false);
    }
  };

  const saveName = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing?.name.trim()) return;
    try {
      await renamePasskey(editing.id, editing.name.trim());
      setEditing(undefined);
      await reload();
    } catch {
      // reported globally
    }
  };

  const remove = async (passkey: PasskeyView) => {
    const passkeyName = passkey.name;
    const yes = await confirmAsync({
      title: t`Remove the passkey ${passkeyName}?`,
      body: t`It can no longer sign in to this account.`,
      confirm: { text: t`Remove`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await removePasskey(passkey.id);
      toastSuccess(t`Passkey ${passkeyName} removed`);
      await reload();
    } catch {
      // reported globally
    }
  };

  return (
    <Panel title={<Trans>Passkeys</Trans>} className="self-section">
      <p className="muted small">
        <Trans>
          A passkey signs you in with your fingerprint, face or device PIN instead of a password, and once you
          have one, it is also asked for after your password.
        </Trans>
      </p>
      {!passkeys ? (
        <Spinner />
      ) : passkeys.length === 0 ? (
        <p className="muted" data-testid="no-passkeys">
          <Trans>You have no passkeys.</Trans>
        </p>
      ) : (
        <ul className="entry-list" data-testid="passkey-list">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="client-entry" data-testid="passkey">
              {editing?.id === passkey.id ? (
                <form className="passkey-rename" onSubmit={saveName}>
                  <TextField
                    label={t`Name`}
                    value={editing.name}
                    onValue={(value) => setEditing({ id: passkey.id, name: value })}
                    maxLength={100}
                    autoFocus
                    data-testid="passkey-name-edit"
                  />
                  <button type="submit" className="btn" data-testid="passkey-name-save">
                    <Trans>Save</Trans>
                  </button>
                </form>
              ) : (
                <div className="client-entry-main">
                  <span className="client-entry-name">{passkey.name}</span>
                </div>
              )}
              {editing?.id !== passkey.id && (
                <button
                  type="button"
                  className="icon-btn"
                  onClick={() => setEditing({ id: passkey.id, name: passkey.name })}
                  aria-label={t`Rename the passkey ${passkey.name}`}
                  data-testid="rename-passkey"
                >
                  <ScreenIcon name="pencil" size={20} />
                </button>
              )}
              <button
                type="button"
                className="icon-btn color-error"
                onClick={() => void remove(passkey)}
                aria-label={t`Remove the passkey ${passkey.name}`}
                data-testid="remove-passkey"
              >
                <ScreenIcon name="trash" size={20} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form className="ssh-key-form" onSubmit={add} noValidate>
          <TextField
            label={t`Name of the new passkey`}
            value={name}
            onValue={setName}
            maxLength={100}
            autoComplete="off"
            placeholder={t`Laptop, phone…`}
            data-testid="passkey-name"
          />
          <button type="submit" className="btn" disabled={busy || !name.trim()} data-testid="add-passkey">
            <ScreenIcon name="plus" size={18} />
            <Trans>Add passkey</Trans>
          </button>
        </form>
      ) : (
        <p className="muted small">
          <Trans>This browser cannot make passkeys.</Trans>
        </p>
      )}
    </Panel>
  );
}
