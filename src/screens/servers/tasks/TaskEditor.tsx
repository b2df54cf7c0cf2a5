import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { createTask, type TaskView as Task, type TaskInput, updateTask } from "../../../api/tasks";
import { Switch } from "../../../components/Switch";
import { TextField } from "../../../components/TextField";
import { toastSuccess } from "../../../components/toastStore";
import { OperationFields } from "./OperationFields";
import { operationLabel } from "./operationLabels";
import { Select } from "./SelectField";
import {
  type EditedOperation,
  eventLabel,
  events,
  kindOf,
  operationTypes,
  type TriggerKind,
  triggerLabel,
  upcoming,
  validPattern,
} from "./taskTriggers";

/** Create or change a task: name, trigger (with the next five runs of a schedule), operations. */
export function TaskEditor({
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
  const [ops, setOps] = useState<EditedOperation[]>(
    (task?.operations as EditedOperation[] | undefined) ?? [{ type: "console", message: "" }],
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
              options={operationTypes.map((type) => ({ value: type, label: operationLabel(type) }))}
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
