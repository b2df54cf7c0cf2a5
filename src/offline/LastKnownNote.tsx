import { i18n } from "@lingui/core";
import { Trans } from "@lingui/react/macro";
import "./offline.css";

/** Says a list is a kept copy and how old it is (its statuses are then shown as unknown). */
export function LastKnownNote({ at }: { at: number | undefined }) {
  if (at === undefined) return null;
  const time = i18n.date(new Date(at), { dateStyle: "medium", timeStyle: "short" });
  return (
    <p className="last-known muted" data-testid="last-known">
      <Trans>Last known at {time}</Trans>
    </p>
  );
}
