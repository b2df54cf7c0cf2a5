import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import {
  NodeTaskParams as ByTask,
  NodeTaskView,
  TaskBody,
  TaskListView,
  TaskRunList,
  TaskRunView,
  TaskSettings,
  TaskSettingsBody,
} from "../../contract/node/task-wire.ts";
import type { Router } from "../http/router.ts";
import type { TaskOps } from "./task-ops.ts";

/**
 * The daemon's task routes under /daemon/server/{id}/tasks (the reference's
 * paths, §9.4), spoken by the panel's RemoteTasks; they call the same TaskOps
 * the local node uses, which checks each task.
 */
export function daemonTaskRoutes(api: Router, ops: TaskOps): void {
  const base = "/daemon/server/:id/tasks";
  api.get(base, { params: Id, answer: TaskListView }, (request) => ops.list(request.params.id));
  api.post(base, { params: Id, body: TaskBody, answer: NodeTaskView }, (request) =>
    ops.create(request.params.id, request.body),
  );
  api.put(`${base}-settings`, { params: Id, body: TaskSettingsBody, answer: TaskSettings }, (request) =>
    ops.setSettings(request.params.id, request.body),
  );
  api.get(`${base}/:taskId`, { params: ByTask, answer: NodeTaskView }, (request) =>
    ops.get(request.params.id, request.params.taskId),
  );
  api.put(`${base}/:taskId`, { params: ByTask, body: TaskBody, answer: NodeTaskView }, (request) =>
    ops.update(request.params.id, request.params.taskId, request.body),
  );
  api.delete(`${base}/:taskId`, { params: ByTask }, async (request, reply) => {
    await ops.delete(request.params.id, request.params.taskId);
    return reply.status(204).send();
  });
  api.post(`${base}/:taskId/run`, { params: ByTask, answer: TaskRunView }, (request) =>
    ops.run(request.params.id, request.params.taskId),
  );
  api.get(`${base}/:taskId/runs`, { params: ByTask, answer: TaskRunList }, (request) =>
    ops.runs(request.params.id, request.params.taskId),
  );
}
