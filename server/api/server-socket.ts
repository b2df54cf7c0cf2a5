import { requirePrincipal } from "../http/guard.ts";
import { scopesOnServer } from "../http/principal.ts";
import { isSameOrigin } from "../http/same-origin.ts";
import { frameText } from "../link/frame-text.ts";
import type { SocketChannel } from "../link/server-wire.ts";
import { holdsScope } from "../panel/scopes.ts";
import { ServerIdParams } from "../wire/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const channelScopes: [SocketChannel, string][] = [
  ["console", "server.console"],
  ["status", "server.status"],
  ["stats", "server.stats"],
];

/**
 * GET /api/servers/{id}/socket (reference §4): a push-only WebSocket. The
 * channels follow the caller's scopes, never the query string; a remote
 * node's frames are relayed as they come.
 */
export function serverSocketRoutes(app: Api, { services }: RouteContext): void {
  typed(app).get(
    "/api/servers/:id/socket",
    { websocket: true, config: { access: "server.view" }, schema: { params: ServerIdParams } },
    async (socket, request) => {
      const id = request.params.id;
      // Cookies ride along on cross-site WebSocket handshakes too: only our own pages may open one.
      const origin = request.headers.origin;
      if (origin && !isSameOrigin(origin, request)) {
        socket.close(1008, "cross-origin socket refused");
        return;
      }
      let end: (() => void) | undefined;
      let closed = false;
      socket.on("close", () => {
        closed = true;
        end?.();
      });
      try {
        const held = await scopesOnServer(services, requirePrincipal(request), id);
        const channels = channelScopes.filter(([, scope]) => holdsScope(held, scope)).map(([c]) => c);
        const node = await services.servers.clientOf(id);
        end = await node.subscribe(
          id,
          channels,
          (message) => socket.send(frameText(message)),
          () => socket.close(1011, "the node closed the stream"),
        );
        if (closed) end();
      } catch {
        socket.close(1011, "server unavailable");
      }
    },
  );
}
