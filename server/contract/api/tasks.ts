import { type Static, Type } from "typebox";
import { ServerIdParams } from "./servers.ts";

/**
 * Tasks as the API shows them: the reference's task (`name, description,
 * cronSchedule, operations`, api.md §6) plus `enabled`, `event`,
 * `consoleMatch`, `nextRun` and `lastRun`. The node checks a task's fields
 * and names the bad one (400 ErrTaskInvalid, metadata.field), so the body
 * schema here only says it is an object.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const TaskView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
  cronSchedule: Type.Optional(Type.String()),
  event: Type.Optional(Type.String()),
  consoleMatch: Type.Optional(Type.String()),
  operations: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  nextRun: Nullable(Type.String({ description: "ISO time of the next scheduled run" })),
  lastRun: Nullable(Type.Object({ time: Type.String(), success: Type.Boolean(), message: Type.String() })),
});
export type TaskView = Static<typeof TaskView>;

export const TaskSettings = Type.Object({
  timezone: Type.String(),
  concurrentLimit: Type.Integer(),
  limitMode: Type.String(),
});

export const TaskList = Type.Object({ tasks: Type.Array(TaskView), settings: TaskSettings });

export const TaskRunView = Type.Object({
  id: Type.Integer(),
  trigger: Type.String(),
  started: Type.String(),
  finished: Nullable(Type.String()),
  success: Nullable(Type.Boolean()),
  message: Type.String(),
  output: Type.String(),
});

export const TaskRunList = Type.Array(TaskRunView);

export const TaskBody = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "{name, description?, enabled?, cronSchedule? | event? | consoleMatch?, operations: [{type, ...}]}",
});

export const TaskParams = Type.Object({
  id: ServerIdParams.properties.id,
  taskId: Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" }),
});
