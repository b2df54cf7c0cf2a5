import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { TASK_PREFIX } from "../../../../server/contract/node/console-messages.ts";
import { nextRuns, parseCron } from "../../../../server/templates/cron.ts";
import {
  createTask,
  deleteTask,
  listTasks,
  runTask,
  type TaskView as Task,
  type TaskInput,
  type TaskListView as TaskList,
  type TaskRun,
  taskRuns,
  updateTask,
} from "../../../api/tasks";
import { useLoad } from "../../../app/useLoad";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import { Switch } from "../../../components/Switch";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";
import { toBcp47 } from "../../../i18n/locales";
import { NodeLine } from "../console/NodeLine";
import { formatDateTime } from "../format";
import type { SectionProps } from "../sectionProps";
import "../../../components/controls.css";
import "./tasks.css";

type TriggerKind = "schedule" | "event" | "console" | "manual";
type Operation = Record<string, unknown> & { type: string };

const events = ["started", "stopped", "crashed", "installed", "backupFailed"] as const;
const operationTypes = [
  "console",
  "command",
  "writefile",
  "sleep",
  "download",
  "start",
  "stop",
  "restart",
  "kill",
  "backup",
] as const;

const eventLabel = (event: string): string =>
  ({
    started: t`Server started`,
    stopped: t`Server stopped`,
    crashed: t`Server crashed`,
    installed: t`Server installed`,
    backupFailed: t`Backup failed`,
  })[event] ?? event;

const triggerLabel = (kind: TriggerKind): string =>
  ({
    schedule: t`On a schedule`,
    event: t`On an event`,
    console: t`On a console line`,
    manual: t`Only when run by hand`,
  })[kind];

const kindOf = (task: Pick<Task, "cronSchedule" | "event" | "consoleMatch">): TriggerKind =>
  task.cronSchedule ? "schedule" : task.event ? "event" : task.consoleMatch ? "console" : "manual";

/** The next five runs of a schedule in the server's time zone, or undefined when it is not valid or never runs. */
function upcoming(cron: string, timeZone: string): number[] | undefined {
  try {
    const runs = nextRuns(parseCron(cron, timeZone), Date.now(), 5);
    return runs.length > 0 ? runs : undefined;
  } catch {
    return undefined;
  }
}

const validPattern = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

/** One operation's fields: the type's one or two values (the template operations the editor offers). */
function OperationFields({ op, onChange }: { op: Operation; onChange: (op: Operation) => void }) {
  const text = (key: string) => (typeof op[key] === "string" ? (op[key] as string) : "");
  const set = (key: string, value: unknown) => onChange({ ...op, [key]: value });
  switch (op.type) {
    case "console":
      return (
        <TextField
          label={t`Line to send`}
          value={text("message")}
          onValue={(v) => set("message", v)}
          required
        />
      );
    case "command":
      return (
        <TextField
          label={t`Command line`}
          value={((op.commands as string[] | undefined) ?? [])[0] ?? ""}
          onValue={(v) => set("commands", [v])}
          required
        />
      );
    case "sleep":
      return (
        <TextField
          label={t`Duration (e.g. 30s)`}
          value={text("duration")}
          onValue={(v) => set("duration", v)}
          required
        />
      );
    case "download":
      return (
        <TextField
          label={t`URL`}
          type="url"
          value={((op.files as string[] | undefined) ?? [])[0] ?? ""}
          onValue={(v) => set("files", [v])}
          required
        />
      );
    case "writefile":
      return (
        <>
          <TextField label={t`File`} value={text("target")} onValue={(v) => set("target", v)} required />
          <TextField label={t`Text`} value={text("text")} onValue={(v) => set("text", v)} />
        </>
      );
    case "backup":
      return (
        <TextField
          label={t`Backups to keep`}
          type="number"
          min={1}
          max={100}
          value={op.keep === undefined ? "" : String(op.keep)}
          onValue={(v) => set("keep", v === "" ? undefined : Number(v))}
        />
      );
    default:
      return null;
  }
}

function Select({
  label,
  value,
  onValue,
  options,
}: {
  label: string;
  value: string;
  onValue: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-box">
        <select id={id} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** Create or change a task: name, trigger (with the next five runs of a schedule), operations. */
function TaskEditor({
  serverId,
  task,
  timeZone,
  locale,
  onDone,
}: {
  serverId: string;
  task?: Task;
  timeZone: string;
  locale: string;
  onDone: (saved: boolean) => void;
}) {
  const [name, setName] = useState(task?.name ?? "");
  const [enabled, setEnabled] = useState(task?.enabled ?? true);
  const [kind, setKind] = useState<TriggerKind>(task ? kindOf(task) : "schedule");
  const [cron, setCron] = useState(task?.cronSchedule ?? "0 4 * * *");
  const [event, setEvent] = useState<string>(task?.event ?? "crashed");
  const [pattern, setPattern] = useState(task?.consoleMatch ?? "");
  const [ops, setOps] = useState<Operation[]>(
    (task?.operations as Operation[] | undefined) ?? [{ type: "console", message: "" }],
  );
  const [sending, setSending] = useState(false);
  const runs = kind === "schedule" ? upcoming(cron, timeZone) : undefined;
  const patternOk = kind !== "console" || (pattern !== "" && validPattern(pattern));
  const ready = name.trim() !== "" && (kind !== "schedule" || !!runs) && patternOk;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    // The node checks each operation and names a bad field.
    const input: TaskInput = {
      name: name.trim(),
      enabled,
      operations: ops as unknown as TaskInput["operations"],
    };
    if (kind === "schedule") input.cronSchedule = cron.trim();
    if (kind === "event") input.event = event as TaskInput["event"];
    if (kind === "console") input.consoleMatch = pattern;
    setSending(true);
    try {
      if (task) await updateTask(serverId, task.id, input);
      else await createTask(serverId, input);
      toastSuccess(t`Task saved`);
      onDone(true);
    } catch {
      // the global handler said why (the field the node refused)
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="tk-editor" onSubmit={submit} data-testid="task-editor">
      <TextField label={t`Name`} value={name} onValue={setName} maxLength={100} required />
      <Select
        label={t`Trigger`}
        value={kind}
        onValue={(v) => setKind(v as TriggerKind)}
        options={(["schedule", "event", "console", "manual"] as const).map((k) => ({
          value: k,
          label: triggerLabel(k),
        }))}
      />
      {kind === "schedule" && (
        <div className="tk-cron">
          <TextField
            label={t`Schedule (cron)`}
            value={cron}
            onValue={setCron}
            invalid={!runs}
            hint={runs ? undefined : t`Not a valid schedule, or one that never runs.`}
            spellCheck={false}
            autoComplete="off"
          />
          {runs && (
            <div className="tk-next" data-testid="task-next-runs">
              <strong className="small">
                <Trans>Next runs</Trans>
              </strong>
              <ol>
                {runs.map((at) => (
                  <li key={at}>
                    {new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short" }).format(at)}
                  </li>
                ))}
              </ol>
              <p className="muted small">
                <Trans>
                  Shown in your time zone. Runs missed while the node is down are not made up later.
                </Trans>
              </p>
            </div>
          )}
        </div>
      )}
      {kind === "event" && (
        <Select
          label={t`Event`}
          value={event}
          onValue={setEvent}
          options={events.map((e) => ({ value: e, label: eventLabel(e) }))}
        />
      )}
      {kind === "console" && (
        <TextField
          label={t`Console pattern (regular expression)`}
          value={pattern}
          onValue={setPattern}
          invalid={pattern !== "" && !patternOk}
          hint={pattern !== "" && !patternOk ? t`Not a valid regular expression.` : undefined}
          spellCheck={false}
          autoComplete="off"
        />
      )}
      <fieldset className="tk-ops">
        <legend>
          <Trans>Operations</Trans>
        </legend>
        {ops.map((op, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: operations have no identity but their place
          <div className="tk-op" key={index} data-testid="task-operation">
            <Select
              label={t`Operation type`}
              value={op.type}
              onValue={(type) => setOps(ops.map((o, i) => (i === index ? { type } : o)))}
              options={operationTypes.map((type) => ({ value: type, label: type }))}
            />
            <OperationFields
              op={op}
              onChange={(next) => setOps(ops.map((o, i) => (i === index ? next : o)))}
            />
            <button
              type="button"
              className="btn btn-outline btn-small color-error"
              onClick={() => setOps(ops.filter((_, i) => i !== index))}
            >
              <Trans>Remove</Trans>
            </button>
          </div>
        ))}
        <button
          type="button"
          className="btn btn-outline btn-small"
          onClick={() => setOps([...ops, { type: "console", message: "" }])}
        >
          <Trans>Add operation</Trans>
        </button>
      </fieldset>
      <Switch label={t`Enabled`} checked={enabled} onChange={setEnabled} />
      <div className="tk-form-actions">
        <button type="submit" className="btn" disabled={sending || !ready}>
          <Trans>Save</Trans>
        </button>
        <button type="button" className="btn btn-outline" onClick={() => onDone(false)}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

function RunState({ run }: { run: Pick<TaskRun, "success" | "finished"> }) {
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

function RunHistory({ serverId, task, locale }: { serverId: string; task: Task; locale: string }) {
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

/** Tasks: scheduled, event and console-match tasks the server's node runs; each action by scope. */
export default function TasksSection({ server, can, active }: SectionProps) {
  const [list, setList] = useState<TaskList>();
  const [editing, setEditing] = useState<Task | "new">();
  const [open, setOpen] = useState<string>();
  const locale = toBcp47(i18n.locale || "en_US");
  const id = server.id;

  const load = useCallback(async () => {
    setList(await listTasks(id));
  }, [id]);

  useEffect(() => {
    if (active) void load().catch(() => {});
  }, [active, load]);

  const run = async (task: Task) => {
    try {
      await runTask(id, task.id);
      toastSuccess(t`Task started`);
      setOpen(task.id);
    } catch {
      // the global handler said why
    }
  };

  const remove = async (task: Task) => {
    const yes = await confirmAsync({
      title: t`Delete task ${task.name}?`,
      body: t`The task and its run history are removed. Backups it made stay.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await deleteTask(id, task.id);
    } catch {
      // the global handler said why
    }
    await load().catch(() => {});
  };

  if (!list) return <Spinner />;
  if (editing) {
    return (
      <TaskEditor
        serverId={id}
        task={editing === "new" ? undefined : editing}
        timeZone={list.settings.timezone}
        locale={locale}
        onDone={(saved) => {
          setEditing(undefined);
          if (saved) void load().catch(() => {});
        }}
      />
    );
  }
  return (
    <div className="tk-section" data-testid="tasks">
      {can("server.tasks.create") && (
        <div>
          <button type="button" className="btn" onClick={() => setEditing("new")}>
            <Trans>New task</Trans>
          </button>
        </div>
      )}
      {list.tasks.length === 0 ? (
        <p className="muted">
          <Trans>No tasks yet.</Trans>
        </p>
      ) : (
        <ul className="tk-list">
          {list.tasks.map((task) => (
            <li key={task.id} className="tk-item" data-testid="task-item">
              <div className="tk-main">
                <div className="tk-title">
                  <strong className="tk-name">{task.name}</strong>
                  {!task.enabled && (
                    <span className="tag">
                      <Trans>Disabled</Trans>
                    </span>
                  )}
                  {task.lastRun && (
                    <RunState run={{ success: task.lastRun.success, finished: task.lastRun.time }} />
                  )}
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
                  <button type="button" className="btn btn-outline btn-small" onClick={() => void run(task)}>
                    <Trans>Run now</Trans>
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn-outline btn-small"
                  aria-expanded={open === task.id}
                  onClick={() => setOpen(open === task.id ? undefined : task.id)}
                >
                  <Trans>Runs</Trans>
                </button>
                {can("server.tasks.edit") && (
                  <button
                    type="button"
                    className="btn btn-outline btn-small"
                    onClick={() => setEditing(task)}
                  >
                    <Trans>Edit</Trans>
                  </button>
                )}
                {can("server.tasks.delete") && (
                  <button
                    type="button"
                    className="btn btn-outline btn-small color-error"
                    onClick={() => void remove(task)}
                  >
                    <Trans>Delete</Trans>
                  </button>
                )}
              </div>
              {open === task.id && <RunHistory serverId={id} task={task} locale={locale} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
