import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { setFlags } from "../../../api/servers";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";

/**
 * The hang watchdog's option (issue 37): after how many failed player queries in a row (one
 * every 30 s) the node restarts a running server; 0 is off, the default.
 */
export function WatchdogField({
  id,
  current,
  canEdit,
  onSaved,
}: {
  id: string;
  current: number;
  canEdit: boolean;
  onSaved: (count: number) => void;
}) {
  const [text, setText] = useState(String(current));
  const [saving, setSaving] = useState(false);
  const count = /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  const valid = count >= 0 && count <= 100;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setSaving(true);
    try {
      await setFlags(id, { unresponsiveRestartAfter: count });
      onSaved(count);
      toastSuccess(t`Settings saved`);
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="inline-form" onSubmit={save} data-testid="server-watchdog">
      <TextField
        label={t`Restart when it stops answering`}
        hint={t`After this many failed player queries in a row, one every 30 seconds; 0 turns it off.`}
        value={text}
        onValue={setText}
        inputMode="numeric"
        maxLength={3}
        disabled={!canEdit}
        invalid={!valid}
      />
      {canEdit && (
        <button type="submit" className="btn" disabled={saving || !valid || count === current}>
          <Trans>Save</Trans>
        </button>
      )}
    </form>
  );
}
