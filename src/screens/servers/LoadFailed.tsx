import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";

/** What could not be loaded, and a way to try again. */
export function LoadFailed({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <p className="muted">
      {children}{" "}
      <button type="button" className="btn-text" onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </p>
  );
}
