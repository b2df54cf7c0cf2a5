import { type Static, type TSchema, Type } from "typebox";
import { type Task, type TaskOperation, taskEvents } from "../../templates/tasks.ts";
import { agrees, Nullable, ParsedByNode, type Same } from "./template-wire.ts";

/**
 * Shapes that cross the panel↔node seam for tasks. The node owns tasks: it
 * keeps them beside the server's definition (`<servers>/<id>.cron`, the
 * reference's file) and runs them, so they keep running while the panel is
 * down. The panel only forwards, and shows them to the API as they are here
 * (server/contract/api/tasks.ts composes these).
 */
export type TaskTrigger = "schedule" | "event" | "console" | "manual";
const triggers = ["schedule", "event", "console", "manual"] as const satisfies readonly TaskTrigger[];

/** One run of a task: under way until `finished` is set. */
export const TaskRunView = Type.Object({
  id: Type.Integer(),
  trigger: Type.Enum(triggers),
  /** ISO times. */
  started: Type.String(),
  finished: Nullable(Type.String()),
  success: Nullable(Type.Boolean()),
  /** Why it failed or was skipped; empty when it succeeded. */
  message: Type.String(),
  /** What its operations wrote (the newest 64 KiB). */
  output: Type.String(),
});
export type TaskRunView = Static<typeof TaskRunView>;
export const TaskRunList = Type.Array(TaskRunView);

/**
 * One operation: its `type` is checked here, its other fields by the template
 * module's parser (server/templates/tasks.ts), which the node ran on saving.
 */
const TaskOperationShape = Type.Unsafe<TaskOperation>(
  Type.Object({ type: Type.String() }, { additionalProperties: true }),
);

const taskFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
  cronSchedule: Type.Optional(Type.String()),
  event: Type.Optional(Type.Enum(taskEvents)),
  consoleMatch: Type.Optional(Type.String()),
  operations: Type.Array(TaskOperationShape),
  /** The panel user whose rights the task runs with (server/templates/tasks.ts); the API leaves it out. */
  author: Type.Optional(Type.Integer()),
  nextRun: Nullable(Type.String({ description: "ISO time of the next scheduled run" })),
  lastRun: Nullable(Type.Object({ time: Type.String(), success: Type.Boolean(), message: Type.String() })),
};
export const NodeTaskView = Type.Object(taskFields);
export type NodeTaskView = Static<typeof NodeTaskView>;
agrees<Same<Omit<NodeTaskView, "id" | "nextRun" | "lastRun">, Task>>();

/** A server's task settings (the reference's scheduler settings). */
export const TaskSettings = Type.Object({
  timezone: Type.String(),
  concurrentLimit: Type.Integer(),
  limitMode: Type.Union([Type.Literal("wait"), Type.Literal("skip")]),
});
export type TaskSettings = Static<typeof TaskSettings>;

export const TaskListView = Type.Object({ tasks: Type.Array(NodeTaskView), settings: TaskSettings });
export type TaskListView = Static<typeof TaskListView>;

/** A task or the settings as written: the node's parser checks each field (400 ErrTaskInvalid naming it). */
export const TaskBody: TSchema = ParsedByNode(
  "{name, description?, enabled?, cronSchedule? | event? | consoleMatch?, operations: [{type, ...}]}",
);
export const TaskSettingsBody: TSchema = ParsedByNode("{timezone?, concurrentLimit?, limitMode?}");

export const NodeTaskParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  taskId: Type.String({ minLength: 1, maxLength: 64 }),
});

/** What the panel asks of a node about a server's tasks. Bad input: 400 ErrTaskInvalid naming the field. */
export interface NodeTasks {
  list(serverId: string): Promise<TaskListView>;
  get(serverId: string, taskId: string): Promise<NodeTaskView>;
  create(serverId: string, task: unknown): Promise<NodeTaskView>;
  /** Replaces the task (its history stays). */
  update(serverId: string, taskId: string, task: unknown): Promise<NodeTaskView>;
  delete(serverId: string, taskId: string): Promise<void>;
  /** Starts a run now; resolves with it under way (or already refused when the server's limit says skip). */
  run(serverId: string, taskId: string): Promise<TaskRunView>;
  /** The last 20 runs, newest first. */
  runs(serverId: string, taskId: string): Promise<TaskRunView[]>;
  /** Sets the server's task settings (time zone, concurrentLimit, limitMode). */
  setSettings(serverId: string, settings: unknown): Promise<TaskSettings>;
}
