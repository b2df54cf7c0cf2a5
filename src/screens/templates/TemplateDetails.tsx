import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import type { Environment } from "../../../server/templates/index.ts";
import type { FullTemplate } from "../../api/templates";
import { Panel } from "../../components/Panel";
import { stepSummary } from "./summaries";
import { VariablesTable } from "./VariablesTable";

function Row({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function Environments({ current, supported }: { current: Environment; supported?: Environment[] }) {
  const list = supported?.length ? supported : [current];
  return (
    <>
      {list.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: environments may repeat a type
        <span key={i} className="tag env-tag">
          {e.type}
          {e.type === current.type && list.length > 1 && ` · ${t`default`}`}
        </span>
      ))}
    </>
  );
}

/** A template shown read-only: what it is, what it needs, its variables, install steps and readme. */
export function TemplateDetails({ template }: { template: FullTemplate }) {
  const { run, requirements } = template;
  const commands = typeof run.command === "string" ? [{ command: run.command }] : run.command;
  const install = (template.install ?? []) as unknown as Record<string, unknown>[];
  const flags = (["autostart", "autorecover", "autorestart"] as const).filter((f) => run[f]);

  return (
    // Several conditional commands need the width: then every panel takes a whole row.
    <div className={commands.length > 1 ? "template-details one-column" : "template-details"}>
      <Panel title={<Trans>Overview</Trans>} className="details-overview">
        <dl className="details">
          <Row label={<Trans>Server type</Trans>} testId="detail-type">
            {template.type || "—"}
          </Row>
          <Row label={<Trans>Environments</Trans>} testId="detail-environments">
            <Environments current={template.environment} supported={template.supportedEnvironments} />
          </Row>
          {requirements.os && <Row label={<Trans>Operating system</Trans>}>{requirements.os}</Row>}
          {requirements.arch && <Row label={<Trans>Architecture</Trans>}>{requirements.arch}</Row>}
          {!!requirements.binaries?.length && (
            <Row label={<Trans>Programs needed</Trans>} testId="detail-binaries">
              {requirements.binaries.map((b) => (
                <code key={b} className="tag env-tag">
                  {b}
                </code>
              ))}
            </Row>
          )}
          <Row label={<Trans>Stops with</Trans>} testId="detail-stop">
            {run.stopCode ? (
              <Trans>signal {run.stopCode}</Trans>
            ) : run.stop ? (
              <code>{run.stop}</code>
            ) : (
              <Trans>the process being ended</Trans>
            )}
          </Row>
          {template.query?.type && <Row label={<Trans>Player query</Trans>}>{template.query.type}</Row>}
        </dl>
      </Panel>

      <Panel title={<Trans>Run</Trans>} className="details-run">
        {commands.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: commands are positions in the list
          <div key={i} className="run-command">
            {"if" in c && c.if && (
              <p className="small muted">
                <Trans>
                  When <code>{c.if}</code>
                </Trans>
              </p>
            )}
            <pre className="code-block" data-testid="run-command">
              {c.command}
            </pre>
          </div>
        ))}
        {(run.workingDirectory || flags.length > 0) && (
          <dl className="details run-extra">
            {run.workingDirectory && (
              <Row label={<Trans>Working folder</Trans>}>
                <code>{run.workingDirectory}</code>
              </Row>
            )}
            {flags.length > 0 && (
              <Row label={<Trans>Restarts</Trans>}>
                {flags.map((f) => (
                  <span key={f} className="tag env-tag">
                    {f}
                  </span>
                ))}
              </Row>
            )}
          </dl>
        )}
      </Panel>

      <Panel title={<Trans>Variables</Trans>} className="details-variables">
        <VariablesTable data={template.data ?? {}} />
      </Panel>

      <Panel title={<Trans>Install steps</Trans>} className="details-install">
        {install.length === 0 ? (
          <p className="muted small">
            <Trans>This template installs nothing: the server starts from an empty folder.</Trans>
          </p>
        ) : (
          <ol className="install-steps" data-testid="install-steps">
            {install.map((op, i) => {
              const s = stepSummary(op);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: steps are positions in the list
                <li key={i}>
                  <span className="tag env-tag">{s.type}</span>
                  {typeof op.if === "string" && (
                    <span className="small muted">
                      {" "}
                      <Trans>
                        when <code>{op.if}</code>
                      </Trans>
                    </span>
                  )}
                  {s.details.map(([k, v]) => (
                    <span key={k} className="step-detail">
                      <span className="muted">{k}:</span> <code>{v}</code>
                    </span>
                  ))}
                </li>
              );
            })}
          </ol>
        )}
      </Panel>

      {template.readme && (
        <Panel title={<Trans>Readme</Trans>} className="details-readme">
          <pre className="code-block readme" data-testid="template-readme">
            {template.readme}
          </pre>
        </Panel>
      )}
    </div>
  );
}
