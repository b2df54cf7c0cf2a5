import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useRef } from "react";
import { type Deployment, getDeployment } from "../../api/nodes";
import { useLoad } from "../../app/useLoad";
import { CopyButton } from "../../components/CopyButton";
import { Panel } from "../../components/Panel";

export const CONFIG_PATH = "/etc/outpost/node.json";
export const BUNDLE_PATH = "/opt/outpost/outpost-daemon.mjs";
/** From an Outpost checkout on the node's host, instead of the bundle. */
export const CHECKOUT_COMMAND = `npx outpost daemon --config ${CONFIG_PATH}`;

/**
 * Fetches the self-contained daemon from the panel and starts it: nothing but
 * Node.js is needed on the host. The secret is read from the saved config
 * rather than written into the command, so it stays out of shell history.
 */
export function daemonCommand(panelUrl: string): string {
  const secret = `$(node -p "require('${CONFIG_PATH}').secret")`;
  return [
    "mkdir -p /opt/outpost",
    `curl -fsS -H "Authorization: Bearer ${secret}" -o ${BUNDLE_PATH} ${panelUrl}/daemon/bundle`,
    `node ${BUNDLE_PATH} --config ${CONFIG_PATH}`,
  ].join(" && \\\n  ");
}

/** How to start this node's daemon on its host: the config file and the one command. */
export function NodeDeployment({ id, revision }: { id: number; revision: number }) {
  const configRef = useRef<HTMLPreElement>(null);
  const commandRef = useRef<HTMLPreElement>(null);

  // `revision` changes after a save: the config carries the ports.
  const load = useLoad(() => getDeployment(id), [id, revision], { keep: true });
  // undefined: loading; null: could not be loaded.
  const deployment: Deployment | null | undefined = load.error ? null : load.data;

  const config = deployment ? JSON.stringify(deployment.config, null, 2) : "";
  const command = deployment ? daemonCommand(String(deployment.config?.panelUrl ?? "")) : "";

  return (
    <Panel title={<Trans>Deployment</Trans>} className="node-deployment">
      {deployment === undefined && (
        <p className="muted">
          <Trans>Loading…</Trans>
        </p>
      )}
      {deployment === null && (
        <p className="muted">
          <Trans>The deployment instructions could not be loaded.</Trans>
        </p>
      )}
      {deployment && (
        <ol className="steps">
          <li>
            <p>
              <Trans>
                On the node's host, save this as <code>{CONFIG_PATH}</code>. It holds the node's secret: make
                it readable only by the user that runs the daemon.
              </Trans>
            </p>
            <div className="code-head">
              <span className="small muted">node.json</span>
              <CopyButton text={config} shown={configRef} label={t`Copy configuration`} />
            </div>
            <pre className="code-block" ref={configRef} data-testid="deployment-config">
              {config}
            </pre>
          </li>
          <li>
            <p>
              <Trans>
                Then fetch the daemon from this panel and start it there (only Node.js 20 or later is needed):
              </Trans>
            </p>
            <div className="code-head">
              <span className="small muted">
                <Trans>Command</Trans>
              </span>
              <CopyButton text={command} shown={commandRef} label={t`Copy command`} />
            </div>
            <pre className="code-block" ref={commandRef} data-testid="deployment-command">
              {command}
            </pre>
            <p className="muted small">
              <Trans>
                From an Outpost checkout on that host, <code>{CHECKOUT_COMMAND}</code> does the same.
              </Trans>
            </p>
            <p className="muted small">
              <Trans>
                The panel must reach the node at its private address and port; this page shows it reachable
                within seconds of the daemon starting.
              </Trans>
            </p>
          </li>
        </ol>
      )}
    </Panel>
  );
}
