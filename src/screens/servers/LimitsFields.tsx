import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { ServerLimits } from "../../../server/templates/index.ts";
import { TextField } from "../../components/TextField";

export type LimitKey = keyof ServerLimits;
/** What the fields hold: the text typed, "" for the node's default. */
export type LimitTexts = Record<LimitKey, string>;

const KEYS: LimitKey[] = ["memoryMiB", "cpuPercent", "pids", "diskMiB"];

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

export function limitTexts(limits: ServerLimits | undefined): LimitTexts {
  return Object.fromEntries(
    KEYS.map((k) => [k, limits?.[k] === undefined ? "" : String(limits[k])]),
  ) as LimitTexts;
}

/** The limits the texts say, or the keys that are not whole numbers of 1 or more. */
export function readLimits(texts: LimitTexts): { limits: ServerLimits; invalid: LimitKey[] } {
  const limits: ServerLimits = {};
  const invalid: LimitKey[] = [];
  for (const key of KEYS) {
    const text = texts[key].trim();
    if (text === "") continue;
    if (/^[1-9]\d{0,8}$/.test(text)) limits[key] = Number(text);
    else invalid.push(key);
  }
  return { limits, invalid };
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
