import type { WebSocket } from "ws";
import type { LiveErrorFrame } from "../contract/api/live.ts";
import {
  closeFrameFlood,
  closeRightsChanged,
  liveMaxWatchedIds,
  serverIdPattern,
} from "../contract/constants.ts";
import { ApiError } from "../errors.ts";
import { tokenBucket } from "../http/frame-budget.ts";
import { boundedSend } from "../http/socket-send.ts";
import type { Reservation } from "../panel/live-connections.ts";
import { scopesOnServers } from "../panel/principal.ts";
import { holdsScope } from "../panel/scopes.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { isSameOrigin } from "./pipeline/same-origin.ts";
import { webSocketHandler } from "./pipeline/websocket.ts";
import type { Api, RouteContext } from "./types.ts";

const reservations = new WeakMap<object, Reservation>();

/**
 * How many `watch` frames a socket may send: a burst (a page that mounts several lists), then a
 * few a second (a person paging or searching). Each watch reads the caller's rights on up to 200
 * servers, so a flood of them (600 frames held /api/health for 25 s) closes the socket instead.
 */
export const watchRate = { burst: 20, perSecond: 5 } as const;
/** The close code of a socket that sent watches faster than watchRate allows. */
export const closeWatchFlood = closeFrameFlood;

/** The ids of a LiveWatchFrame, or the reason the frame is not one. */
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
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string" && serverIdPattern.test(id)))
    return new ApiError(400, "ErrBadRequest", "ids must be a list of server ids");
  if (ids.length > liveMaxWatchedIds)
    return new ApiError(400, "ErrBadRequest", "at most ${max} servers per watch", { max: liveMaxWatchedIds });
  return [...new Set(ids as string[])];
}

/** A refused frame is answered in the API's error envelope, and the socket stays open. */
function sendError(socket: WebSocket, error: ApiError): void {
  socket.send(JSON.stringify({ type: "error", ...error.toBody() } satisfies LiveErrorFrame));
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
      reservations.get(request.raw)?.attach((reason) => socket.close(closeRightsChanged, reason));

      const mayWatch = tokenBucket(watchRate);
      socket.on("message", async (data) => {
        if (!mayWatch()) {
          socket.close(closeWatchFlood, "too many watch frames: at most 5 a second");
          return;
        }
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
