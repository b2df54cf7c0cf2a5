import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect } from "react";
import { TASK_PREFIX } from "../../../../server/contract/node/console-messages.ts";
import { type TaskView as Task, type TaskRun, taskRuns } from "../../../api/tasks";
import { useLoad } from "../../../app/useLoad";
import { Spinner } from "../../../components/Spinner";
import { NodeLine } from "../console/NodeLine";
import { formatDateTime } from "../format";
import { type TriggerKind, triggerLabel } from "./taskTriggers";

export function RunState({ run }: { run: Pick<TaskRun, "success" | "finished"> }) {
  if (run.finished === null)
    return (
      <span className="tag tk-state tk-running">
        <Trans>Under way</Trans>
      </span>
    );
  return run.success ? (
    <span className="tag tk-state tk-ok">
      <Trans>Succeeded</Trans>
    </span>
  ) : (
    <span className="tag tk-state tk-failed">
      <Trans>Failed</Trans>
    </span>
  );
}

/**
 * A run's output: the runner's own lines and its steps' (`[TASK] `, the node's table) in the page's
 * language, as the console shows the node's; what the run's commands printed as it came.
 */
function RunOutput({ output }: { output: string }) {
  return (
    <pre className="tk-output">
      {output
        .replace(/\n$/, "")
        .split("\n")
        .map((line, i) =>
          line.startsWith(TASK_PREFIX) ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines, never reordered
            <span key={i} className="tk-line tk-line-task">
              <span className="tk-tag">{t`Task`}</span> <NodeLine text={line.slice(TASK_PREFIX.length)} />
            </span>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines, never reordered
            <span key={i} className="tk-line">
              {line}
            </span>
          ),
        )}
    </pre>
  );
}

export function RunHistory({ serverId, task, locale }: { serverId: string; task: Task; locale: string }) {
  const { data: runs, reload } = useLoad(() => taskRuns(serverId, task.id), [serverId, task.id], {
    keep: true,
  });
  // A run under way shows its end without a reload.
  useEffect(() => {
    const timer = setInterval(reload, 2000);
    return () => clearInterval(timer);
  }, [reload]);
  if (!runs) return <Spinner />;
  if (runs.length === 0)
    return (
      <p className="muted small">
        <Trans>No runs yet.</Trans>
      </p>
    );
  return (
    <ol className="tk-runs" data-testid="task-runs">
      {runs.map((run) => (
        <li key={run.id} className="tk-run" data-testid="task-run">
          <div className="tk-run-head">
            <RunState run={run} />
            <time dateTime={run.started} className="small">
              {formatDateTime(run.started, locale)}
            </time>
            <span className="muted small">
              {run.trigger === "manual" ? t`Run by hand` : triggerLabel(run.trigger as TriggerKind)}
            </span>
          </div>
          {run.message && (
            <p className="small tk-message">
              <NodeLine text={run.message} />
            </p>
          )}
          {run.output && <RunOutput output={run.output} />}
        </li>
      ))}
    </ol>
  );
}
