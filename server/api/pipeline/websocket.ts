import { type IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { WebSocket, WebSocketServer } from "ws";

/**
 * WebSocket routes on the panel's Fastify server. An upgrade request goes
 * through Fastify's router like any request (its hooks: the guard, the
 * route's access rule and preHandler), and a route whose handler is
 * `webSocketHandler(...)` takes the connection over. An answer instead (401,
 * 404, 429...) goes to the client as plain HTTP and the connection closes.
 * `ws` loads with the first socket, not at start (with @fastify/websocket,
 * which did the same, it cost about 1.4 MiB of heap at idle).
 */
const upgrades = new WeakMap<IncomingMessage, { socket: Duplex; head: Buffer }>();

let server: WebSocketServer | undefined;
let maxPayload = 64 * 1024;

export function installWebSockets(app: FastifyInstance, options: { maxPayload: number }): void {
  maxPayload = options.maxPayload;
  const onUpgrade = (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node drops its own error listener before the upgrade event: a reset here must not crash.
    socket.on("error", destroy);
    upgrades.set(raw, { socket, head });
    const response = new ServerResponse(raw);
    response.assignSocket(socket as never);
    // Answered over HTTP (no upgrade): the connection has nothing more to carry.
    response.once("finish", () => socket.destroy());
    try {
      app.routing(raw, response);
    } catch (error) {
      app.log.warn({ err: error }, "websocket upgrade failed");
      socket.destroy();
    }
  };
  app.server.on("upgrade", onUpgrade);
  app.addHook("preClose", (done) => {
    app.server.off("upgrade", onUpgrade);
    if (!server) return done();
    for (const client of server.clients) client.close();
    server.close(() => done());
  });
}

function destroy(this: Duplex): void {
  this.destroy();
}

async function webSocketServer(): Promise<WebSocketServer> {
  if (server) return server;
  const { WebSocketServer } = await import("ws");
  server ??= new WebSocketServer({ noServer: true, maxPayload });
  return server;
}

/** Whether the request is an upgrade to `protocol` (another than WebSocket, which a route speaks itself). */
export function upgradesTo(request: FastifyRequest, protocol: string): boolean {
  return upgrades.has(request.raw) && request.headers.upgrade?.toLowerCase() === protocol;
}

/** Takes an upgrade's connection over (see upgradesTo): Fastify answers nothing more on it. */
export function takeOverConnection(request: FastifyRequest, reply: FastifyReply): Duplex {
  const upgrade = upgrades.get(request.raw);
  if (!upgrade) throw new Error("not an upgrade");
  reply.hijack();
  if (upgrade.head.length > 0) upgrade.socket.unshift(upgrade.head);
  return upgrade.socket;
}

/**
 * A GET route's handler that accepts the WebSocket and hands it to `handle`.
 * A request that does not ask for an upgrade (a plain GET, HEAD) gets a 404.
 * A failure of `handle` is logged and ends the socket.
 */
export function webSocketHandler<R extends FastifyRequest>(
  handle: (socket: WebSocket, request: R) => unknown,
): (request: R, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    const upgrade = upgrades.get(request.raw);
    if (upgrade === undefined) {
      await reply.code(404).send();
      return;
    }
    reply.hijack();
    const wss = await webSocketServer();
    // ws puts its own error listener on the connection as it takes it over.
    upgrade.socket.off("error", destroy);
    wss.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (socket) => {
      const fail = (error: unknown) => {
        request.log.error({ err: error }, "websocket failed");
        socket.terminate();
      };
      socket.on("error", fail);
      try {
        Promise.resolve(handle(socket, request)).catch(fail);
      } catch (error) {
        fail(error);
      }
    });
  };
}
