import { Trans } from "@lingui/react/macro";
import { Panel } from "../../components/Panel";
import { ActivityLog } from "../activity/ActivityLog";

/** One's own sign-ins (failed ones on the account too) and changes. */
export default function SelfActivitySection() {
  return (
    <Panel title={<Trans>Activity</Trans>} className="self-section">
      <div data-testid="self-activity">
        <ActivityLog scope={{ kind: "self" }} />
      </div>
    </Panel>
  );
}
