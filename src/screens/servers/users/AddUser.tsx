import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { listPermissionPresets } from "../../../api/permissionPresets";
import { type GrantOutcome, grantServerUser } from "../../../api/serverUsers";
import { useLoad } from "../../../app/useLoad";
import { validEmail } from "../../../app/validation";
import { ScreenIcon } from "../../../components/screenIcons";
import { TextField } from "../../../components/TextField";
import { isAdmin } from "../../../state/scopes";
import { shippedPresets } from "../scopes/presetLabels";
import { grantableBy, ScopePicker } from "../scopes/ScopePicker";
import { alwaysGranted } from "../scopes/scopeLabels";
import type { ServerCan } from "../serverScopes";
import { customChoice, PresetChoice } from "./PresetChoice";

// A new user starts as a Viewer, what the API gives when a client sends no scopes
// (server/contract/scopes.ts); a preset is sent as such, and the panel gives of it only what the
// editor may give (as for a list).
const defaultPreset = "viewer";

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
  const presets =
    useLoad((signal) => listPermissionPresets({ signal, exempt: true }), []).data ?? shippedPresets;
  const scopesOf = (id: string) =>
    (presets.find((p) => p.id === id)?.scopes ?? []).filter((s) => s === alwaysGranted || editable(s));
  const [choice, setChoice] = useState(defaultPreset);
  const [custom, setCustom] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const ok = validEmail(email);
  const scopes = choice === customChoice ? custom : scopesOf(choice);

  const choose = (id: string) => {
    // Custom starts from the preset chosen before it.
    if (id === customChoice && choice !== customChoice) setCustom(scopesOf(choice));
    setChoice(id);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!ok || busy) return;
    setBusy(true);
    try {
      const address = email.trim();
      const outcome = await grantServerUser(
        serverId,
        address,
        choice === customChoice ? custom : { preset: choice },
      );
      onAdded(address.toLowerCase(), outcome);
      setEmail("");
      setTried(false);
      // The next person starts as a Viewer again, not from hidden choices for this one.
      setChoice(defaultPreset);
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
      <PresetChoice presets={presets} value={choice} onChange={choose} />
      {choice === customChoice ? (
        <ScopePicker value={custom} onChange={setCustom} editable={editable} testId="add-user-scopes" />
      ) : (
        <p className="muted small" data-testid="preset-count">
          <Trans>Permissions given: {scopes.length}</Trans>
        </p>
      )}
    </form>
  );
}
