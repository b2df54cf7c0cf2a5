import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Environment } from "../../../../server/templates/index.ts";
import type { FullTemplate } from "../../../api/templates";
import { Spinner } from "../../../components/Spinner";
import { hasScope } from "../../../state/scopes";
import { type NodeChoice, templateEnvironments } from "./wizard";

function environmentName(env: Environment): string {
  if (env.type === "host") return t`Host (runs directly on the node)`;
  return env.image ? t`Docker (${env.image})` : t`Docker`;
}

/** The wizard's second step: the node, and which of the template's environments to run it in. */
export function EnvironmentStep({
  template,
  nodes,
  nodeId,
  onNode,
  available,
  envIndex,
  onEnv,
}: {
  template: FullTemplate;
  nodes: NodeChoice[] | undefined;
  nodeId: number;
  onNode: (id: number) => void;
  available: string[] | null | undefined;
  envIndex: number;
  onEnv: (i: number) => void;
}) {
  const envs = templateEnvironments(template);
  return (
    <div className="env-step">
      <div className="field">
        <label htmlFor="wizard-node">
          <Trans>Node</Trans>
        </label>
        {nodes === undefined ? (
          <Spinner />
        ) : (
          <div className="field-box">
            <select
              id="wizard-node"
              value={String(nodeId)}
              onChange={(e) => onNode(Number(e.currentTarget.value))}
              disabled={nodes.length < 2}
            >
              {nodes.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.isLocal ? t`${n.name} (local)` : n.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {available === null && hasScope("nodes.view") && (
        <p className="srv-note">
          <Trans>The node did not say which environments it offers; the server may be refused.</Trans>
        </p>
      )}
      <fieldset className="env-choices">
        <legend>
          <Trans>Environment</Trans>
        </legend>
        {available === undefined ? (
          <Spinner />
        ) : (
          envs.map((env, i) => {
            const offered = !available || available.includes(env.type);
            const isDefault =
              env.type === template.environment.type && envs.findIndex((e) => e.type === env.type) === i;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: environments have no id; the list is fixed per template
              <label key={i} className={offered ? "env-choice" : "env-choice env-unavailable"}>
                <input
                  type="radio"
                  name="environment"
                  checked={envIndex === i}
                  disabled={!offered}
                  onChange={() => onEnv(i)}
                />
                <span className="env-choice-main">
                  <span className="env-choice-name">
                    {environmentName(env)}
                    {isDefault && (
                      <span className="tag" data-testid="env-default">
                        <Trans>Default</Trans>
                      </span>
                    )}
                  </span>
                  {!offered && (
                    <span className="muted small">
                      <Trans>Not offered by this node</Trans>
                    </span>
                  )}
                </span>
              </label>
            );
          })
        )}
      </fieldset>
    </div>
  );
}
