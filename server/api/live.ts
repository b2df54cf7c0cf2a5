import type { WebSocket } from "ws";
import { ApiError } from "../errors.ts";
import { boundedSend } from "../http/socket-send.ts";
import type { Reservation } from "../panel/live-connections.ts";
import { scopesOnServers } from "../panel/principal.ts";
import { holdsScope } from "../panel/scopes.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { isSameOrigin } from "./pipeline/same-origin.ts";
import { webSocketHandler } from "./pipeline/websocket.ts";
import type { Api, RouteContext } from "./types.ts";

/** The most servers one watch may name (a page of the list holds far fewer). */
export const maxWatchedIds = 200;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

const reservations = new WeakMap<object, Reservation>();

/** The ids of a `{"type":"watch","ids":[...]}` frame, or the reason it is not one. */
function watchedIds(data: unknown): string[] | ApiError {
  let frame: unknown;
  try {
    frame = JSON.parse(String(data));
  } catch {
    return new ApiError(400, "ErrBadRequest", "a frame must be JSON");
  }
  const { type, ids } = (frame ?? {}) as { type?: unknown; ids?: unknown };
  if (type !== "watch")
    return new ApiError(400, "ErrBadRequest", 'the only frame is {"type":"watch","ids":[...]}');
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string" && idPattern.test(id)))
    return new ApiError(400, "ErrBadRequest", "ids must be a list of server ids");
  if (ids.length > maxWatchedIds)
    return new ApiError(400, "ErrBadRequest", "at most ${max} servers per watch", { max: maxWatchedIds });
  return [...new Set(ids as string[])];
}

/** A refused frame is answered in the API's error envelope, and the socket stays open. */
function sendError(socket: WebSocket, error: ApiError): void {
  socket.send(JSON.stringify({ type: "error", ...error.toBody() }));
}

/**
 * GET /api/live (ours, issue 25): one WebSocket for the status and stats of
 * many servers. The client names the servers it shows (`watch`, replacing the
 * last); the panel answers each one's status at once, then a status frame on
 * each change and a stats frame per sample while it runs. A server the caller
 * may not see is left out without a word, exactly like one that does not exist.
 */
export function liveRoutes(app: Api, { services }: RouteContext): void {
  app.get(
    "/api/live",
    {
      config: { access: "authenticated" },
      // Before the upgrade, so that a caller over a cap gets a plain 429 answer and no socket.
      preHandler: async (request) => {
        const principal = requirePrincipal(request);
        const reservation = await services.live.reserve({
          kind: "live",
          userId: principal.user.id,
          sessionHash: principal.sessionHash,
          serverId: "",
          address: request.ip,
        });
        reservations.set(request.raw, reservation);
        request.raw.socket.once("close", () => reservation.release());
        // Closed while the place was being taken: no close event will come.
        if (request.raw.socket.destroyed) reservation.release();
      },
    },
    webSocketHandler(async (socket, request) => {
      // Cookies ride along on cross-site WebSocket handshakes too: only our own pages may open one.
      const origin = request.headers.origin;
      if (origin && !isSameOrigin(origin, request)) {
        socket.close(1008, "cross-origin socket refused");
        return;
      }
      const principal = requirePrincipal(request);
      const send = boundedSend(socket);
      let stops: (() => void)[] = [];
      let watches = 0;
      let closed = false;
      const stopAll = () => {
        for (const stop of stops) stop();
        stops = [];
      };
      socket.on("close", () => {
        closed = true;
        stopAll();
        reservations.get(request.raw)?.release();
      });
      // Signing out, a password change, a change of rights on a server: the browser opens it again.
      reservations.get(request.raw)?.attach((reason) => socket.close(4001, reason));

      socket.on("message", async (data) => {
        const ids = watchedIds(data);
        if (ids instanceof ApiError) return sendError(socket, ids);
        const watch = ++watches;
        try {
          const held = await scopesOnServers(services, principal, ids);
          // A newer watch (or the close) came while the scopes were read: this one is void.
          if (closed || watch !== watches) return;
          // The new watches first: a server in both keeps its node stream (and its status is sent at once).
          const replaced = stops;
          stops = [];
          ids.forEach((id, i) => {
            if (!holdsScope(held[i], "server.view")) return;
            const status = holdsScope(held[i], "server.status");
            const stats = holdsScope(held[i], "server.stats");
            if (status || stats) stops.push(services.liveStatus.watch(id, { status, stats, send }));
          });
          for (const stop of replaced) stop();
        } catch (error) {
          request.log.error({ err: error }, "live watch failed");
          if (!closed) socket.close(1011, "watch failed");
        }
      });
    }),
  );
}
