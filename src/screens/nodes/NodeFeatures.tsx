import { i18n, type MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type NodeFeaturesAnswer as Features, getFeatures } from "../../api/nodes";
import { useLoad } from "../../app/useLoad";
import { Panel } from "../../components/Panel";
import { ScreenIcon } from "../../components/screenIcons";
import { errorMessage } from "../../i18n/errorMessages";
import { usableEnvironments } from "./environments";
import { ReachableBadge } from "./ReachableBadge";

/** Status and what the node's host offers (spec §2.3: os, arch, env, docker), re-read when it comes back. */
export function NodeFeatures({ id, reachable }: { id: number; reachable: boolean | undefined }) {
  // undefined: loading; null: not known (unreachable or refused).
  const load = useLoad(reachable && (() => getFeatures(id)), [id, reachable]);
  const features: Features | null | undefined = !reachable || load.error ? null : load.data;

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
            <FeatureRow label={t`Docker`} feature="docker" has={features.features} available={t`Available`} />
            <FeatureRow
              label={t`Sandbox`}
              feature="sandbox"
              has={features.features}
              available={t`Servers run sandboxed`}
            />
            <FeatureRow label={t`Limits`} feature="limits" has={features.features} available={t`Available`} />
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
          {features.features.includes("unsandboxed") ? (
            <Trans>
              This node runs servers without a sandbox (OUTPOST_UNSANDBOXED=allow): each runs as a user of its
              own, but can read whatever that user may read on the host. Unsafe on a shared panel.
            </Trans>
          ) : (
            // The same words as the node's log and a refused start.
            i18n._(refusalText("ErrSandboxUnavailable", features.sandboxReason))
          )}
        </p>
      )}
      {features?.loopbackReason && (
        <p className="client-warning" role="alert" data-testid="loopback-warning">
          {i18n._(refusalText("ErrLoopbackOpen", features.loopbackReason))}
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

/** A refusal of host servers in the words of the node's log and of a refused start. */
function refusalText(
  code: "ErrSandboxUnavailable" | "ErrLoopbackOpen",
  reason: string | undefined,
): MessageDescriptor {
  const text = errorMessage(code) as MessageDescriptor;
  return { ...text, values: { reason: reason ?? "?" } };
}

/** One optional capability of the node: what it gives when the node has it, else "Not available". */
function FeatureRow(props: { label: string; feature: string; has: string[]; available: string }) {
  const present = props.has.includes(props.feature);
  return (
    <div>
      <dt>{props.label}</dt>
      <dd data-testid={`feature-${props.feature}`}>
        <span className={present ? "with-icon" : "with-icon muted"}>
          <ScreenIcon name={present ? "reachable" : "unreachable"} size={16} />
          {present ? props.available : <Trans>Not available</Trans>}
        </span>
      </dd>
    </div>
  );
}
