import { t } from "@lingui/core/macro";
import type { ServerAction } from "../../api/servers";
import { useKnownStatuses } from "../../offline/knownStatus";
import { KnownAt, LastKnownNote } from "../../offline/LastKnownNote";
import type { Known, KnownServerPage } from "../../offline/lastKnown";
import { offlineReason } from "../../offline/NeedsNetwork";
import { DAEMON_PREFIX, daemonTag } from "./console/ConsoleWriter";
import { NodeLine } from "./console/NodeLine";
import { BackToServers, ServerHeadId } from "./ServerHeadId";
import { ActionIcon, type ActionIconName, StatusBadge } from "./serverIcons";
import { serverCan } from "./serverScopes";
import { viewActions } from "./view/Lifecycle";
import "./console/console.css";
import "./servers.css";

const ACTIONS: readonly ServerAction[] = ["start", "stop", "kill"];

/** Opens at the last lines, as the live console does. */
const toLatest = (el: HTMLDivElement | null) => {
  if (el) el.scrollTop = el.scrollHeight;
};

/**
 * A server's page offline (issue 11): what it last showed — name, node, the console's last lines —
 * with its age; the last status delivered with its time, and that state's actions, which wait for
 * the network.
 */
export function KeptServerPage({ kept }: { kept: Known<KnownServerPage> }) {
  const { server, console, scopes } = kept.value;
  const known = useKnownStatuses(true)?.[server.id];
  const can = serverCan(scopes);
  const label: Record<string, string> = { start: t`Start`, stop: t`Stop`, kill: t`Kill` };
  // The actions of the last known state, as the live page offers them (all three with none known).
  const offered = known ? viewActions(known.status) : ACTIONS;
  return (
    <div className="server-view" data-testid="kept-server-page">
      <BackToServers />
      <header className="server-head panel">
        <ServerHeadId server={server} />
        <div className="lifecycle is-old">
          <span className="known-status">
            <StatusBadge status={known?.status ?? "unknown"} />
            {known && <KnownAt at={known.at} />}
          </span>
          <div className="lifecycle-buttons" data-testid="server-actions">
            {ACTIONS.filter((a) => offered.includes(a) && can(`server.${a}`)).map((a) => (
              <button
                key={a}
                type="button"
                className="btn btn-outline"
                disabled
                title={offlineReason()}
                data-testid={`action-${a}`}
              >
                <ActionIcon name={a as ActionIconName} size={18} />
                {label[a]}
              </button>
            ))}
          </div>
        </div>
      </header>
      <LastKnownNote at={kept.at} />
      {can("server.console") && (
        <div className="panel server-section">
          <div className="console">
            <div className="console-frame">
              <div
                className="console-output"
                role="log"
                aria-label={t`Console output`}
                data-testid="kept-console"
                ref={toLatest}
              >
                {console.map((line, i) =>
                  line.startsWith(DAEMON_PREFIX) ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines, never reordered
                    <div key={i} className="console-line console-line-daemon">
                      <span className="console-daemon">{daemonTag()}</span>{" "}
                      <NodeLine text={line.slice(DAEMON_PREFIX.length)} />
                    </div>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines, never reordered
                    <div key={i} className="console-line">
                      {line}
                    </div>
                  ),
                )}
              </div>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
