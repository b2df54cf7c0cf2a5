import { ServerIdParams } from "../contract/api/servers.ts";
import { closeFrameFlood, closeRightsChanged } from "../contract/constants.ts";
import { frameBytes } from "../contract/node/frame-text.ts";
import type { SocketChannel } from "../contract/node/server-wire.ts";
import { type Rate, tokenBucket } from "../http/frame-budget.ts";
import { boundedSend, tooSlowClose } from "../http/socket-send.ts";
import type { Reservation } from "../panel/live-connections.ts";
import { scopesOnServer } from "../panel/principal.ts";
import { holdsScope } from "../panel/scopes.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { isSameOrigin } from "./pipeline/same-origin.ts";
import { webSocketHandler } from "./pipeline/websocket.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Each socket request's place among the live connections, taken before the upgrade. */
const reservations = new WeakMap<object, Reservation>();

const channelScopes: [SocketChannel, string][] = [
  ["console", "server.console"],
  ["status", "server.status"],
  ["stats", "server.stats"],
];

/**
 * The socket is push-only: what a client sends is read and dropped. A few frames (a reference
 * client asking for a replay or a status) cost nothing; a stream of them, each parsed and
 * unmasked by the panel, closes the socket (closeFrameFlood), as /api/live's watch flood does.
 */
export const consoleFrameRate: Rate = { burst: 20, perSecond: 5 };

/**
 * GET /api/servers/{id}/socket (reference §4): a push-only WebSocket. The
 * channels follow the caller's scopes, never the query string; a remote
 * node's frames are relayed as they come.
 */
export function serverSocketRoutes(app: Api, { services }: RouteContext): void {
  typed(app).get(
    "/api/servers/:id/socket",
    {
      config: { access: "server.view" },
      schema: { params: ServerIdParams },
      // Before the upgrade, so that a caller over a cap gets a plain 429 answer and no socket.
      preHandler: async (request) => {
        const principal = requirePrincipal(request);
        const reservation = await services.live.reserve({
          kind: "console",
          userId: principal.user.id,
          sessionHash: principal.sessionHash,
          serverId: (request.params as { id: string }).id,
          address: request.ip,
        });
        reservations.set(request.raw, reservation);
        // The connection's end, however it comes (upgrade refused, socket closed), frees the place.
        request.raw.socket.once("close", () => reservation.release());
        // Closed while the place was being taken: no close event will come.
        if (request.raw.socket.destroyed) reservation.release();
      },
    },
    webSocketHandler(async (socket, request) => {
      const id = request.params.id;
      // Cookies ride along on cross-site WebSocket handshakes too: only our own pages may open one.
      const origin = request.headers.origin;
      if (origin && !isSameOrigin(origin, request)) {
        socket.close(1008, "cross-origin socket refused");
        return;
      }
      let end: (() => void) | undefined;
      let closed = false;
      const send = boundedSend(socket);
      // A move to another node reports its progress here (the panel's own message, not the node's).
      const unwatch = services.transfers.watch(id, (data) => send(frameBytes({ type: "transfer", data })));
      socket.on("close", () => {
        closed = true;
        unwatch();
        end?.();
        reservations.get(request.raw)?.release();
      });
      const mayReceive = tokenBucket(consoleFrameRate);
      socket.on("message", () => {
        if (!mayReceive()) socket.close(closeFrameFlood, "too many frames: this socket only sends");
      });
      // Signing out, a password change, losing rights on this server: the socket goes with them.
      reservations.get(request.raw)?.attach((reason) => socket.close(closeRightsChanged, reason));
      try {
        const held = await scopesOnServer(services, requirePrincipal(request), id);
        const channels = channelScopes.filter(([, scope]) => holdsScope(held, scope)).map(([c]) => c);
        const node = await services.servers.clientOf(id);
        end = await node.subscribe(
          id,
          channels,
          (message) => send(frameBytes(message)),
          // The node cut the panel off as too slow: the browser resyncs (and marks the gap) as if
          // the panel had cut it off itself.
          (code) =>
            code === tooSlowClose.code
              ? socket.close(tooSlowClose.code, tooSlowClose.reason)
              : socket.close(1011, "the node closed the stream"),
        );
        if (closed) end();
      } catch {
        socket.close(1011, "server unavailable");
      }
    }),
  );
}
