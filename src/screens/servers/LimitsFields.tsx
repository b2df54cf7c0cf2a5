import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { TextField } from "../../components/TextField";
import { LIMIT_KEYS as KEYS, type LimitKey, type LimitTexts, readLimits } from "./limits";

function limitLabel(key: LimitKey): string {
  switch (key) {
    case "memoryMiB":
      return t`Memory limit (MiB)`;
    case "cpuPercent":
      return t`CPU (% of one core)`;
    case "pids":
      return t`Processes`;
    default:
      return t`Disk (MiB)`;
  }
}

/**
 * A server's resource limits (administrators only; the panel refuses them from anyone else):
 * memory, CPU, processes and disk, each empty for the node's default.
 */
export function LimitsFields({
  texts,
  onTexts,
  readOnly,
  titleClass,
}: {
  texts: LimitTexts;
  onTexts: (texts: LimitTexts) => void;
  readOnly?: boolean;
  /** The legend's look where it sits among other sections' titles (the admin section's). */
  titleClass?: string;
}) {
  const { invalid } = readLimits(texts);
  return (
    <fieldset className="limits-fields" data-testid="limits-fields">
      <legend className={titleClass}>
        <Trans>Limits</Trans>
      </legend>
      <p className="muted small">
        <Trans>Empty means the node's default.</Trans>
      </p>
      <div className="limits-grid">
        {KEYS.map((key) => (
          <TextField
            key={key}
            label={limitLabel(key)}
            value={texts[key]}
            onValue={(v) => onTexts({ ...texts, [key]: v })}
            inputMode="numeric"
            readOnly={readOnly}
            invalid={invalid.includes(key)}
            hint={invalid.includes(key) ? t`Enter a whole number` : undefined}
            data-testid={`limit-${key}`}
          />
        ))}
      </div>
    </fieldset>
  );
}
