import { t } from "@lingui/core/macro";
import { ScreenIcon } from "../../components/screenIcons";

/** Reachable or unreachable, told by icon and word (never colour alone). */
export function ReachableBadge({ reachable, live }: { reachable: boolean; live?: boolean }) {
  return (
    <span
      className={reachable ? "reach reach-up" : "reach reach-down"}
      data-testid="reachable"
      data-reachable={reachable}
      role={live ? "status" : undefined}
    >
      <ScreenIcon name={reachable ? "reachable" : "unreachable"} size={18} />
      {reachable ? t`Reachable` : t`Unreachable`}
    </span>
  );
}
