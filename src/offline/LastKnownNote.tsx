import { i18n } from "@lingui/core";
import { Trans } from "@lingui/react/macro";
import "./offline.css";

/** When a kept copy was made: the time alone if today, else with its date. */
function knownTime(at: number): string {
  const when = new Date(at);
  const today = when.toDateString() === new Date().toDateString();
  return i18n.date(when, today ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" });
}

/** Says a list is a kept copy and how old it is. */
export function LastKnownNote({ at }: { at: number | undefined }) {
  if (at === undefined) return null;
  const time = i18n.date(new Date(at), { dateStyle: "medium", timeStyle: "short" });
  return (
    <p className="last-known muted" data-testid="last-known">
      <Trans>Last known at {time}</Trans>
    </p>
  );
}

/** Beside a last known status: when it was delivered. */
export function KnownAt({ at }: { at: number }) {
  const time = knownTime(at);
  return (
    <span className="known-at muted" data-testid="known-at">
      <Trans>Last known at {time}</Trans>
    </span>
  );
}
