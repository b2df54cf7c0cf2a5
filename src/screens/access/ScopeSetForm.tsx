import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { TextField } from "../../components/TextField";
import { ScopePicker } from "../servers/scopes/ScopePicker";
import type { ScopeGroup } from "../servers/scopes/scopeLabels";

export interface ScopeSet {
  name: string;
  scopes: string[];
  require2fa?: boolean;
}

/** A name and a set of scopes (a preset's server scopes, a role's global ones), and for a role two-factor. */
export function ScopeSetForm({
  initial,
  groups,
  alwaysOn,
  withTwoFactor,
  onSave,
  onCancel,
  testId,
}: {
  initial?: ScopeSet;
  groups?: readonly ScopeGroup[];
  alwaysOn?: string | null;
  withTwoFactor?: boolean;
  onSave: (set: ScopeSet) => Promise<void>;
  onCancel: () => void;
  testId: string;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [scopes, setScopes] = useState<string[]>(initial?.scopes ?? []);
  const [require2fa, setRequire2fa] = useState(initial?.require2fa ?? false);
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const valid = name.trim() !== "";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!valid || busy) return;
    setBusy(true);
    try {
      await onSave(withTwoFactor ? { name: name.trim(), scopes, require2fa } : { name: name.trim(), scopes });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="scope-set-form" onSubmit={submit} noValidate data-testid={testId}>
      <TextField
        label={t`Name`}
        value={name}
        onValue={setName}
        maxLength={100}
        invalid={tried && !valid}
        hint={tried && !valid ? t`Enter a name` : undefined}
      />
      {withTwoFactor && (
        <label className="check-row">
          <input
            type="checkbox"
            checked={require2fa}
            onChange={(e) => setRequire2fa(e.currentTarget.checked)}
            data-testid="role-require2fa"
          />
          <span>
            <Trans>Its users must set up two-factor sign-in before anything else</Trans>
          </span>
        </label>
      )}
      <ScopePicker
        value={scopes}
        onChange={setScopes}
        editable={() => true}
        groups={groups}
        alwaysOn={alwaysOn}
        testId={`${testId}-scopes`}
      />
      <div className="form-actions">
        <button type="button" className="btn btn-outline color-neutral" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
        <button type="submit" className="btn" disabled={busy} data-testid={`${testId}-save`}>
          <Trans>Save</Trans>
        </button>
      </div>
    </form>
  );
}
