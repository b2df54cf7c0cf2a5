import { type Static, Type } from "typebox";
import {
  TaskRunList as NodeTaskRunList,
  TaskRunView as NodeTaskRunView,
  NodeTaskView,
  TaskSettings,
} from "../node/task-wire.ts";
import { ServerIdParams } from "./servers.ts";

/**
 * Tasks as the API shows them: the node's (server/contract/node/task-wire.ts),
 * passed through as they are but for `author`, which is the panel's business.
 * That is the reference's task (`name, description, cronSchedule, operations`,
 * api.md §6) plus `enabled`, `event`, `consoleMatch`, `nextRun` and `lastRun`.
 * The node checks a task's fields and names the bad one (400 ErrTaskInvalid,
 * metadata.field), so the body schema here only says it is an object.
 */
export const TaskView = Type.Omit(NodeTaskView, ["author"]);
export type TaskView = Static<typeof TaskView>;

export { TaskSettings };

export const TaskList = Type.Object({ tasks: Type.Array(TaskView), settings: TaskSettings });
export type TaskList = Static<typeof TaskList>;

export const TaskRunView = NodeTaskRunView;
export const TaskRunList = NodeTaskRunList;

export const TaskBody = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "{name, description?, enabled?, cronSchedule? | event? | consoleMatch?, operations: [{type, ...}]}",
});

export const TaskParams = Type.Object({
  id: ServerIdParams.properties.id,
  taskId: Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" }),
});
