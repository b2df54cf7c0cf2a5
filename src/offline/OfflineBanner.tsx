import { Trans } from "@lingui/react/macro";
import { online } from "./network";
import "./offline.css";

/** App-wide: the panel cannot be reached; lists show what was last seen. */
export function OfflineBanner() {
  if (online.value) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <Trans>You are offline. Lists show what was last seen; actions that need the panel are disabled.</Trans>
    </div>
  );
}
