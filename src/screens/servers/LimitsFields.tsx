import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Switch } from "../../components/Switch";
import { TextField } from "../../components/TextField";
import { LIMIT_KEYS as KEYS, type LimitKey, type LimitProblem, type LimitTexts, readLimits } from "./limits";

function limitLabel(key: LimitKey): string {
  switch (key) {
    case "memoryMiB":
      return t`Memory limit (MiB)`;
    case "swapMiB":
      return t`Swap (MiB)`;
    case "cpuPercent":
      return t`CPU (% of one core)`;
    case "cpuThreads":
      return t`CPU threads`;
    case "pids":
      return t`Processes`;
    case "ioWeight":
      return t`IO weight`;
    default:
      return t`Disk (MiB)`;
  }
}

/** What a field says under it: why its text is refused, else what it means. */
function limitHint(
  key: LimitKey,
  problem: LimitProblem | undefined,
  unlimitedSwap: boolean,
): string | undefined {
  switch (problem) {
    case "whole":
      return t`Enter a whole number`;
    case "range":
      return t`Enter a number from 10 to 1000`;
    case "cpus":
      return t`Enter CPU numbers like 0,1 or 0-3`;
    case "needsMemory":
      return t`Needs a memory limit`;
  }
  if (key === "swapMiB")
    return unlimitedSwap ? t`As much as the host has` : t`Beside the memory limit; empty: none`;
  if (key === "cpuThreads") return t`For example 0,1 or 0-3; empty: all`;
  if (key === "ioWeight") return t`10 to 1000; empty: the default`;
  return undefined;
}

/**
 * A server's resource limits (administrators only; the panel refuses them from anyone else):
 * memory and swap, CPU and its threads, processes, disk and IO weight, each empty for the node's
 * default; swap may also be unlimited.
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
  const { problems } = readLimits(texts);
  const unlimitedSwap = texts.swapMiB === "unlimited";
  return (
    <fieldset className="limits-fields" data-testid="limits-fields">
      <legend className={titleClass}>
        <Trans>Limits</Trans>
      </legend>
      <p className="muted small">
        <Trans>Empty means the node's default.</Trans>
      </p>
      <div className="limits-grid">
        {KEYS.map((key) => {
          const field = (
            <TextField
              key={key}
              label={limitLabel(key)}
              value={key === "swapMiB" && unlimitedSwap ? "" : texts[key]}
              onValue={(v) => onTexts({ ...texts, [key]: v })}
              inputMode={key === "cpuThreads" ? "text" : "numeric"}
              readOnly={readOnly}
              disabled={key === "swapMiB" && unlimitedSwap}
              invalid={problems[key] !== undefined}
              hint={limitHint(key, problems[key], unlimitedSwap)}
              data-testid={`limit-${key}`}
            />
          );
          if (key !== "swapMiB") return field;
          // Its switch beside it: swap as much as the host has.
          return (
            <div key={key}>
              {field}
              <Switch
                label={t`Unlimited swap`}
                checked={unlimitedSwap}
                disabled={readOnly}
                onChange={(on) => onTexts({ ...texts, swapMiB: on ? "unlimited" : "" })}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
