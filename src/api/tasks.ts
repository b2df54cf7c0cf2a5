import type { TaskList as TaskListView, TaskView } from "../../server/contract/api/tasks";
import type { TaskRunView } from "../../server/contract/node/task-wire";
import { type CallOptions, del, get, post, put } from "./client";

// A server's tasks (kept and run by its node). Types come from the server's wire definitions.

export type { TaskListView, TaskView };
export type TaskRun = TaskRunView;

/** What the editor sends: a task without the fields the node fills in. */
export type TaskInput = Omit<TaskView, "id" | "nextRun" | "lastRun">;

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}/tasks`;
const one = (id: string, taskId: string) => `${base(id)}/${encodeURIComponent(taskId)}`;

export const listTasks = (id: string, opts?: CallOptions) => get<TaskListView>(base(id), opts);

export const createTask = (id: string, task: TaskInput, opts?: CallOptions) =>
  post<TaskView>(base(id), task, opts);

export const updateTask = (id: string, taskId: string, task: TaskInput, opts?: CallOptions) =>
  put<TaskView>(one(id, taskId), task, opts);

export const deleteTask = (id: string, taskId: string, opts?: CallOptions) =>
  del<void>(one(id, taskId), opts);

/** Starts a run now; answers with it under way. */
export const runTask = (id: string, taskId: string, opts?: CallOptions) =>
  post<TaskRun>(`${one(id, taskId)}/run`, undefined, opts);

/** The last 20 runs, newest first, with their output. */
export const taskRuns = (id: string, taskId: string, opts?: CallOptions) =>
  get<TaskRun[]>(`${one(id, taskId)}/runs`, opts);
