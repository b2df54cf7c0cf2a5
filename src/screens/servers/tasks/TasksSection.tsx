import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import {
  deleteTask,
  listTasks,
  runTask,
  type TaskView as Task,
  type TaskListView as TaskList,
} from "../../../api/tasks";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import { toastSuccess } from "../../../components/toastStore";
import { toBcp47 } from "../../../i18n/locales";
import type { SectionProps } from "../sectionProps";
import { TaskEditor } from "./TaskEditor";
import { TaskItem } from "./TaskItem";
import "../../../components/controls.css";
import "./tasks.css";

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
            <TaskItem
              key={task.id}
              serverId={id}
              task={task}
              can={can}
              locale={locale}
              open={open === task.id}
              onToggle={() => setOpen(open === task.id ? undefined : task.id)}
              onRun={() => void run(task)}
              onEdit={() => setEditing(task)}
              onRemove={() => void remove(task)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
