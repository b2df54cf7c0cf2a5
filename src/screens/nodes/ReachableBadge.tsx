import { t } from "@lingui/core/macro";
import { ScreenIcon } from "../../components/screenIcons";

/**
 * Reachable or unreachable, told by icon and word (never colour alone); `undefined` is not known
 * (a last-known list offline must not claim what it cannot see).
 */
export function ReachableBadge({ reachable, live }: { reachable: boolean | undefined; live?: boolean }) {
  const state = reachable === undefined ? "unknown" : reachable ? "reachable" : "unreachable";
  return (
    <span
      className={
        reachable === undefined ? "reach reach-unknown" : reachable ? "reach reach-up" : "reach reach-down"
      }
      data-testid="reachable"
      data-reachable={reachable ?? "unknown"}
      role={live ? "status" : undefined}
    >
      <ScreenIcon name={state} size={18} />
      {state === "unknown" ? t`Unknown` : reachable ? t`Reachable` : t`Unreachable`}
    </span>
  );
}
