import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { type Deployment, getDeployment } from "../../api/nodes";
import { CopyButton } from "../../components/CopyButton";
import { Panel } from "../../components/Panel";

export const CONFIG_PATH = "/etc/outpost/node.json";
export const DAEMON_COMMAND = `npx outpost daemon --config ${CONFIG_PATH}`;

/** How to start this node's daemon on its host: the config file and the one command. */
export function NodeDeployment({ id, revision }: { id: number; revision: number }) {
  const [deployment, setDeployment] = useState<Deployment | null>();
  const configRef = useRef<HTMLPreElement>(null);
  const commandRef = useRef<HTMLPreElement>(null);

  // `revision` changes after a save: the config carries the ports.
  // biome-ignore lint/correctness/useExhaustiveDependencies: revision is the reload trigger
  useEffect(() => {
    let live = true;
    getDeployment(id)
      .then((d) => live && setDeployment(d))
      .catch(() => live && setDeployment(null));
    return () => {
      live = false;
    };
  }, [id, revision]);

  const config = deployment ? JSON.stringify(deployment.config, null, 2) : "";

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
              <Trans>Then start the daemon there (Node.js 20 or later):</Trans>
            </p>
            <div className="code-head">
              <span className="small muted">
                <Trans>Command</Trans>
              </span>
              <CopyButton text={DAEMON_COMMAND} shown={commandRef} label={t`Copy command`} />
            </div>
            <pre className="code-block" ref={commandRef} data-testid="deployment-command">
              {DAEMON_COMMAND}
            </pre>
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
