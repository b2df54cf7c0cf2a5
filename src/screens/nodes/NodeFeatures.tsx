import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { type NodeFeatures as Features, getFeatures } from "../../api/nodes";
import { Panel } from "../../components/Panel";
import { ScreenIcon } from "../../components/screenIcons";
import { usableEnvironments } from "./environments";
import { ReachableBadge } from "./ReachableBadge";

/** Status and what the node's host offers (spec §2.3: os, arch, env, docker), re-read when it comes back. */
export function NodeFeatures({ id, reachable }: { id: number; reachable: boolean }) {
  // undefined: loading; null: not known (unreachable or refused).
  const [features, setFeatures] = useState<Features | null | undefined>(undefined);

  useEffect(() => {
    if (!reachable) {
      setFeatures(null);
      return;
    }
    let live = true;
    setFeatures(undefined);
    getFeatures(id)
      .then((f) => live && setFeatures(f))
      .catch(() => live && setFeatures(null));
    return () => {
      live = false;
    };
  }, [id, reachable]);

  return (
    <Panel title={<Trans>Status</Trans>} className="node-status">
      <dl className="details" data-testid="node-features">
        <div>
          <dt>
            <Trans>Connection</Trans>
          </dt>
          <dd>
            <ReachableBadge reachable={reachable} live />
          </dd>
        </div>
        {features && (
          <>
            <div>
              <dt>
                <Trans>Operating system</Trans>
              </dt>
              <dd data-testid="feature-os">{features.os}</dd>
            </div>
            <div>
              <dt>
                <Trans>Architecture</Trans>
              </dt>
              <dd data-testid="feature-arch">{features.arch}</dd>
            </div>
            <div>
              <dt>
                <Trans>Environments</Trans>
              </dt>
              <dd data-testid="feature-environments">
                {usableEnvironments(features).map((e) => (
                  <span key={e} className="tag env-tag">
                    {e}
                  </span>
                ))}
              </dd>
            </div>
            <div>
              <dt>
                <Trans>Docker</Trans>
              </dt>
              <dd data-testid="feature-docker">
                {features.features.includes("docker") ? (
                  <span className="with-icon">
                    <ScreenIcon name="reachable" size={16} />
                    <Trans>Available</Trans>
                  </span>
                ) : (
                  <span className="with-icon muted">
                    <ScreenIcon name="unreachable" size={16} />
                    <Trans>Not available</Trans>
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>
                <Trans>Sandbox</Trans>
              </dt>
              <dd data-testid="feature-sandbox">
                {features.features.includes("sandbox") ? (
                  <span className="with-icon">
                    <ScreenIcon name="reachable" size={16} />
                    <Trans>Servers run sandboxed</Trans>
                  </span>
                ) : (
                  <span className="with-icon muted">
                    <ScreenIcon name="unreachable" size={16} />
                    <Trans>Not available</Trans>
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>
                <Trans>Limits</Trans>
              </dt>
              <dd data-testid="feature-limits">
                {features.features.includes("limits") ? (
                  <span className="with-icon">
                    <ScreenIcon name="reachable" size={16} />
                    <Trans>Available</Trans>
                  </span>
                ) : (
                  <span className="with-icon muted">
                    <ScreenIcon name="unreachable" size={16} />
                    <Trans>Not available</Trans>
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>
                <Trans>Version</Trans>
              </dt>
              <dd data-testid="feature-version">{features.version || "—"}</dd>
            </div>
          </>
        )}
      </dl>
      {features && !features.features.includes("sandbox") && (
        <p className="client-warning" role="alert" data-testid="sandbox-warning">
          <Trans>
            This node cannot sandbox its servers (bubblewrap or user namespaces are missing): their programs
            run unconfined and can read what the node's own user can, including the panel's data. Install
            bubblewrap on the node and restart it.
          </Trans>
        </p>
      )}
      {features === null && (
        <p className="muted small" data-testid="features-unknown">
          {reachable ? (
            <Trans>The node did not say what it offers.</Trans>
          ) : (
            <Trans>What this node offers shows once the panel can reach it.</Trans>
          )}
        </p>
      )}
      {features === undefined && (
        <p className="muted small">
          <Trans>Asking the node…</Trans>
        </p>
      )}
    </Panel>
  );
}
