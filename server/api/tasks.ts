import { ServerIdParams } from "../contract/api/servers.ts";
import {
  TaskBody,
  TaskList,
  TaskParams,
  TaskRunList,
  TaskRunView,
  TaskSettings,
  TaskView,
} from "../contract/api/tasks.ts";
import { scopesOnServer } from "../panel/principal.ts";
import type { TaskCaller } from "../panel/tasks.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const byServer = { params: ServerIdParams };
const byTask = { params: TaskParams };

/**
 * tasks under /api/servers/{id}/tasks (reference §2.5 scopes; the reference
 * proxies these to the node, as we do). Beyond it: GET of one task, its runs,
 * and PUT on the list for the server's task settings (edit scope).
 */
export function taskRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { tasks } = services;
  // A task may do only what its author may do by hand: the service checks its operations against these.
  const caller = async (request: Parameters<typeof requirePrincipal>[0], id: string): Promise<TaskCaller> => {
    const principal = requirePrincipal(request);
    return { userId: principal.user.id, held: await scopesOnServer(services, principal, id) };
  };

  api.get(
    "/api/servers/:id/tasks",
    { config: { access: "server.tasks.view" }, schema: { ...byServer, response: { 200: TaskList } } },
    async (request) => tasks.list(request.params.id, (await caller(request, request.params.id)).held),
  );

  api.post(
    "/api/servers/:id/tasks",
    {
      config: { access: "server.tasks.create" },
      schema: { ...byServer, body: TaskBody, response: { 200: TaskView } },
    },
    async (request) =>
      tasks.create(request.params.id, request.body, await caller(request, request.params.id)),
  );

  api.put(
    "/api/servers/:id/tasks",
    {
      config: { access: "server.tasks.edit" },
      schema: { ...byServer, body: TaskBody, response: { 200: TaskSettings } },
    },
    (request) => tasks.setSettings(request.params.id, request.body),
  );

  api.get(
    "/api/servers/:id/tasks/:taskId",
    { config: { access: "server.tasks.view" }, schema: { ...byTask, response: { 200: TaskView } } },
    async (request) =>
      tasks.get(request.params.id, request.params.taskId, (await caller(request, request.params.id)).held),
  );

  api.put(
    "/api/servers/:id/tasks/:taskId",
    {
      config: { access: "server.tasks.edit" },
      schema: { ...byTask, body: TaskBody, response: { 200: TaskView } },
    },
    async (request) =>
      tasks.update(
        request.params.id,
        request.params.taskId,
        request.body,
        await caller(request, request.params.id),
      ),
  );

  api.delete(
    "/api/servers/:id/tasks/:taskId",
    { config: { access: "server.tasks.delete" }, schema: byTask },
    async (request, reply) => {
      await tasks.delete(request.params.id, request.params.taskId);
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/servers/:id/tasks/:taskId/run",
    { config: { access: "server.tasks.run" }, schema: { ...byTask, response: { 202: TaskRunView } } },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await tasks.run(request.params.id, request.params.taskId, await caller(request, request.params.id)),
        ),
  );

  api.get(
    "/api/servers/:id/tasks/:taskId/runs",
    { config: { access: "server.tasks.view" }, schema: { ...byTask, response: { 200: TaskRunList } } },
    (request) => tasks.runs(request.params.id, request.params.taskId),
  );
}
