import { Trans } from "@lingui/react/macro";
import type { TaskView as Task } from "../../../api/tasks";
import { formatDateTime } from "../format";
import type { ServerCan } from "../serverScopes";
import { RunHistory, RunState } from "./RunHistory";
import { eventLabel, kindOf, triggerLabel } from "./taskTriggers";

/** One task in the list: its trigger, next and last run, the actions its scopes allow, its runs when open. */
export function TaskItem({
  serverId,
  task,
  can,
  locale,
  open,
  onToggle,
  onRun,
  onEdit,
  onRemove,
}: {
  serverId: string;
  task: Task;
  can: ServerCan;
  locale: string;
  /** Whether its run history shows. */
  open: boolean;
  onToggle: () => void;
  onRun: () => void;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <li className="tk-item" data-testid="task-item">
      <div className="tk-main">
        <div className="tk-title">
          <strong className="tk-name">{task.name}</strong>
          {!task.enabled && (
            <span className="tag">
              <Trans>Disabled</Trans>
            </span>
          )}
          {task.lastRun && <RunState run={{ success: task.lastRun.success, finished: task.lastRun.time }} />}
        </div>
        <p className="muted small tk-meta">
          <span>
            {triggerLabel(kindOf(task))}
            {task.cronSchedule && <code> {task.cronSchedule}</code>}
            {task.event && ` · ${eventLabel(task.event)}`}
            {task.consoleMatch && <code> {task.consoleMatch}</code>}
          </span>
          {task.nextRun && (
            <span data-testid="task-next-run">
              <Trans>Next run</Trans>:{" "}
              <time dateTime={task.nextRun}>{formatDateTime(task.nextRun, locale)}</time>
            </span>
          )}
          {task.lastRun && (
            <span>
              <Trans>Last run</Trans>:{" "}
              <time dateTime={task.lastRun.time}>{formatDateTime(task.lastRun.time, locale)}</time>
            </span>
          )}
        </p>
      </div>
      <div className="tk-actions">
        {can("server.tasks.run") && (
          <button type="button" className="btn btn-outline btn-small" onClick={onRun}>
            <Trans>Run now</Trans>
          </button>
        )}
        <button type="button" className="btn btn-outline btn-small" aria-expanded={open} onClick={onToggle}>
          <Trans>Runs</Trans>
        </button>
        {can("server.tasks.edit") && (
          <button type="button" className="btn btn-outline btn-small" onClick={onEdit}>
            <Trans>Edit</Trans>
          </button>
        )}
        {can("server.tasks.delete") && (
          <button type="button" className="btn btn-outline btn-small color-error" onClick={onRemove}>
            <Trans>Delete</Trans>
          </button>
        )}
      </div>
      {open && <RunHistory serverId={serverId} task={task} locale={locale} />}
    </li>
  );
}
