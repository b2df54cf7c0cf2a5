import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { defaultServerUserScopes } from "../../../../server/contract/scopes.ts";
import { type GrantOutcome, grantServerUser } from "../../../api/serverUsers";
import { validEmail } from "../../../app/validation";
import { ScreenIcon } from "../../../components/screenIcons";
import { TextField } from "../../../components/TextField";
import { isAdmin } from "../../../state/scopes";
import { grantableBy, ScopePicker } from "../scopes/ScopePicker";
import { alwaysGranted } from "../scopes/scopeLabels";
import type { ServerCan } from "../serverScopes";

// A new user starts with what users named in the wizard get (and what the API gives when a
// client sends no scopes): one default, server/contract/scopes.ts.

/** Add someone by e-mail (an account here, or an invitee) with the permissions chosen. */
export function AddUser({
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
