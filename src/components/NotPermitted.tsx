import { Trans } from "@lingui/react/macro";
import { Panel } from "./Panel";

/** What a screen shows when the signed-in user lacks the scope it needs. */
export function NotPermitted() {
  return (
    <Panel title={<Trans>Permission denied</Trans>}>
      <p>
        <Trans>Your account may not open this page.</Trans>
      </p>
    </Panel>
  );
}
