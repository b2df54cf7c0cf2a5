import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { updateSelf } from "../../api/self";
import { Panel } from "../../components/Panel";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";

const MIN_LENGTH = 8;

/** A new password with the current one; the panel signs out the account's other sessions. */
export function PasswordSection() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [busy, setBusy] = useState(false);
  const tooShort = next.length > 0 && next.length < MIN_LENGTH;
  const mismatch = repeat.length > 0 && repeat !== next;
  const ready = current && next.length >= MIN_LENGTH && repeat === next;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      await updateSelf({ password: current, newPassword: next });
      setCurrent("");
      setNext("");
      setRepeat("");
      toastSuccess(t`Password changed. Your other sessions were signed out.`);
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Password</Trans>} className="self-section">
      <form className="self-form" onSubmit={submit} data-testid="password-form">
        <TextField
          label={t`Current password`}
          type="password"
          value={current}
          onValue={setCurrent}
          autoComplete="current-password"
          data-testid="password-current"
        />
        <TextField
          label={t`New password`}
          type="password"
          value={next}
          onValue={setNext}
          autoComplete="new-password"
          invalid={tooShort}
          hint={t`At least ${MIN_LENGTH} characters.`}
          data-testid="password-new"
        />
        <TextField
          label={t`Repeat the new password`}
          type="password"
          value={repeat}
          onValue={setRepeat}
          autoComplete="new-password"
          invalid={mismatch}
          hint={mismatch ? t`The passwords differ.` : undefined}
          data-testid="password-repeat"
        />
        <p className="muted small">
          <Trans>Changing the password signs you out everywhere else.</Trans>
        </p>
        <div className="self-actions">
          <button type="submit" className="btn" disabled={busy || !ready} data-testid="password-save">
            <Trans>Change password</Trans>
          </button>
        </div>
      </form>
    </Panel>
  );
}
