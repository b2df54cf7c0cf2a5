import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useState } from "react";
import { type BackupPolicy, getBackupPolicy, saveBackupPolicy } from "../../../api/backups";
import { toastSuccess } from "../../../components/toastStore";

const MiB = 1024 * 1024;
type Counts = Omit<BackupPolicy, "maxTotalBytes">;
const counts: { key: keyof Counts; label: () => string }[] = [
  { key: "keepLast", label: () => t`Keep the last` },
  { key: "keepDaily", label: () => t`One a day for (days)` },
  { key: "keepWeekly", label: () => t`One a week for (weeks)` },
  { key: "keepMonthly", label: () => t`One a month for (months)` },
];

/** The server's backup policy (grandfather-father-son, a size bound), applied on the node after each backup. */
export function PolicyForm({
  serverId,
  editable,
  onSaved,
}: {
  serverId: string;
  editable: boolean;
  onSaved: () => Promise<void>;
}) {
  const [policy, setPolicy] = useState<BackupPolicy>();
  const [sending, setSending] = useState(false);
  useEffect(() => {
    getBackupPolicy(serverId).then(setPolicy, () => {});
  }, [serverId]);
  if (!policy) return null;
  const set = (key: keyof BackupPolicy, value: number) => setPolicy({ ...policy, [key]: value });
  const whole = (text: string) => Math.max(0, Math.floor(Number(text) || 0));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    try {
      setPolicy(await saveBackupPolicy(serverId, policy));
      toastSuccess(t`Policy saved`);
    } catch {
      // the global handler said why
    } finally {
      setSending(false);
    }
    await onSaved().catch(() => {});
  };
  return (
    <form className="bk-policy" onSubmit={submit} data-testid="backup-policy">
      <h3 className="bk-policy-title">
        <Trans>Backup policy</Trans>
      </h3>
      <div className="bk-policy-fields">
        {counts.map(({ key, label }) => (
          <label key={key} className="bk-policy-field">
            <span className="small">{label()}</span>
            <input
              className="input"
              type="number"
              min={0}
              max={10000}
              value={policy[key]}
              disabled={!editable}
              onChange={(e) => set(key, whole(e.currentTarget.value))}
              data-testid={`policy-${key}`}
            />
          </label>
        ))}
        <label className="bk-policy-field">
          <span className="small">{t`At most in all (MiB)`}</span>
          <input
            className="input"
            type="number"
            min={0}
            value={Math.round(policy.maxTotalBytes / MiB)}
            disabled={!editable}
            onChange={(e) => set("maxTotalBytes", whole(e.currentTarget.value) * MiB)}
            data-testid="policy-maxTotal"
          />
        </label>
      </div>
      <p className="muted small">
        <Trans>0 keeps everything. Pinned backups are never removed.</Trans>
      </p>
      {editable && (
        <button type="submit" className="btn btn-outline btn-small" disabled={sending}>
          <Trans>Save policy</Trans>
        </button>
      )}
    </form>
  );
}
