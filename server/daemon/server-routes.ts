import { frameBytes } from "../contract/node/frame-text.ts";
import {
  ConsoleLine,
  ConsoleQuery,
  ConsoleView,
  FlagsBody,
  FlagsView,
  NodeServerParams as Id,
  NodeDataBody,
  type ServerAction,
  ServerActionParams,
  ServerActionQuery,
  ServerCreated,
  ServerDataQuery,
  ServerDataView,
  ServerStatusView,
  type SocketChannel,
  StatsView,
  serverActions,
} from "../contract/node/server-wire.ts";
import { ParsedByNode, WireTemplate } from "../contract/node/template-wire.ts";
import { ApiError } from "../errors.ts";
import { boundedSend } from "../http/socket-send.ts";
import type { Router } from "./http/router.ts";
import type { ServerOps } from "./server-ops.ts";

/** A definition as written: the node's template parser checks it and names the bad field. */
const DefinitionBody = ParsedByNode("a server definition (reference api.md §6)");
const channels: SocketChannel[] = ["console", "status", "stats"];

/**
 * The daemon's routes for servers under /daemon/server/{id}, spoken by the
 * panel's RemoteServers. They call the same ServerOps the local node uses.
 */
export function daemonServerRoutes(api: Router, ops: ServerOps): void {
  const base = "/daemon/server/:id";

  api.put(base, { params: Id, body: DefinitionBody, answer: ServerCreated }, async (request) => {
    await ops.createServer(request.params.id, request.body);
    return { id: request.params.id };
  });
  api.delete(base, { params: Id }, async (request, reply) => {
    await ops.deleteServer(request.params.id);
    return reply.status(204).send();
  });
  api.get(`${base}/definition`, { params: Id, answer: WireTemplate }, (request) =>
    ops.definition(request.params.id),
  );
  api.put(`${base}/definition`, { params: Id, body: DefinitionBody }, async (request, reply) => {
    await ops.replaceDefinition(request.params.id, request.body);
    return reply.status(204).send();
  });
  api.get(`${base}/data`, { params: Id, query: ServerDataQuery, answer: ServerDataView }, (request) =>
    ops.serverData(request.params.id, request.query.all === true),
  );
  api.post(`${base}/data`, { params: Id, body: NodeDataBody }, async (request, reply) => {
    await ops.setServerData(request.params.id, request.body.values, request.body.onlyUserEditable);
    return reply.status(204).send();
  });
  api.get(`${base}/flags`, { params: Id, answer: FlagsView }, (request) => ops.flags(request.params.id));
  api.post(`${base}/flags`, { params: Id, body: FlagsBody }, async (request, reply) => {
    await ops.setFlags(request.params.id, request.body);
    return reply.status(204).send();
  });
  api.post(
    `${base}/:action`,
    { params: ServerActionParams, query: ServerActionQuery },
    async (request, reply) => {
      const action = request.params.action as ServerAction;
      if (!serverActions.includes(action)) throw new ApiError(404, "ErrNotFound", "no such endpoint");
      await ops.action(request.params.id, action, request.query.wait !== undefined);
      return reply.status(204).send();
    },
  );
  api.get(`${base}/console`, { params: Id, query: ConsoleQuery, answer: ConsoleView }, (request) =>
    ops.console(request.params.id, request.query.time ?? 0),
  );
  api.post(`${base}/console`, { params: Id, body: ConsoleLine }, async (request, reply) => {
    await ops.sendConsole(request.params.id, request.body);
    return reply.status(204).send();
  });
  api.get(`${base}/stats`, { params: Id, answer: StatsView }, (request) => ops.stats(request.params.id));
  api.get(`${base}/status`, { params: Id, answer: ServerStatusView }, (request) =>
    ops.status(request.params.id),
  );

  api.socket(`${base}/socket`, { params: Id }, async (socket, request) => {
    const query = request.query as Record<string, unknown>;
    const granted = channels.filter((c) => c in query);
    try {
      const send = boundedSend(socket);
      const end = await ops.subscribe(
        request.params.id,
        granted,
        (message) => send(frameBytes(message)),
        () => socket.close(),
      );
      socket.on("close", end);
    } catch {
      socket.close(1011, "no such server");
    }
  });
}
