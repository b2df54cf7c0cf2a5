import type { Task, TaskSettings } from "../../templates/tasks.ts";

/**
 * Shapes that cross the panel↔node seam for tasks. The node owns tasks: it
 * keeps them beside the server's definition (`<servers>/<id>.cron`, the
 * reference's file) and runs them, so they keep running while the panel is
 * down. The panel only forwards.
 */
export type TaskTrigger = "schedule" | "event" | "console" | "manual";

/** One run of a task: under way until `finished` is set. */
export interface TaskRunView {
  id: number;
  trigger: TaskTrigger;
  /** ISO times. */
  started: string;
  finished: string | null;
  success: boolean | null;
  /** Why it failed or was skipped; empty when it succeeded. */
  message: string;
  /** What its operations wrote (the newest 64 KiB). */
  output: string;
}

export interface TaskView extends Task {
  id: string;
  /** The next scheduled run (ISO), null for a task without a schedule or disabled. */
  nextRun: string | null;
  lastRun: { time: string; success: boolean; message: string } | null;
}

export interface TaskListView {
  tasks: TaskView[];
  settings: TaskSettings;
}

/** What the panel asks of a node about a server's tasks. Bad input: 400 ErrTaskInvalid naming the field. */
export interface NodeTasks {
  list(serverId: string): Promise<TaskListView>;
  get(serverId: string, taskId: string): Promise<TaskView>;
  create(serverId: string, task: unknown): Promise<TaskView>;
  /** Replaces the task (its history stays). */
  update(serverId: string, taskId: string, task: unknown): Promise<TaskView>;
  delete(serverId: string, taskId: string): Promise<void>;
  /** Starts a run now; resolves with it under way (or already refused when the server's limit says skip). */
  run(serverId: string, taskId: string): Promise<TaskRunView>;
  /** The last 20 runs, newest first. */
  runs(serverId: string, taskId: string): Promise<TaskRunView[]>;
  /** Sets the server's task settings (time zone, concurrentLimit, limitMode). */
  setSettings(serverId: string, settings: unknown): Promise<TaskSettings>;
}
