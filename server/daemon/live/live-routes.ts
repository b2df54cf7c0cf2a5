import type { WebSocket } from "ws";
import {
  type LiveNodeFrame,
  LiveQuery,
  LiveRequestFrame,
  type NodeLive,
  type NodeLiveListener,
} from "../../contract/node/live-wire.ts";
import type { NodeEvents } from "../../contract/node/node-events.ts";
import { boundedSend } from "../../http/socket-send.ts";
import type { Router } from "../http/router.ts";

/** The most servers one panel connection may watch at once (far more than a node holds in practice). */
const maxWatchedPerStream = 10_000;

/** TypeBox's checker, loaded with the first stream (see validate.ts: an idle node does not need it). */
let valueModule: Promise<typeof import("typebox/value")> | undefined;
const loadValue = () => (valueModule ??= import("typebox/value"));

/**
 * GET /daemon/live (WebSocket): the panel's one live stream to this node
 * (contract/node/live-wire.ts). The panel subscribes and unsubscribes
 * servers by id; each subscribed server's status (with its limits) comes at
 * once and on each change, its stats per sample while it runs. A subscribe
 * of a server already on the stream starts it anew (its status comes again),
 * for a panel that needs it told afresh. With `?events=1` the node's events
 * come on it too, from after `?after=` (the panel's one socket to the node).
 * A panel that reads too slowly is cut off (1013) and subscribes again on its
 * new connection, from its last event.
 */
export function daemonLiveRoutes(api: Router, live: NodeLive, events: NodeEvents): void {
  api.socket("/daemon/live", { query: LiveQuery }, (socket, request) => {
    const send = boundedSend(socket);
    let closed = false;
    let endEvents: (() => void) | undefined;
    const watching = new Map<string, () => void>();
    const frame = (f: LiveNodeFrame) => send(JSON.stringify(f));
    const listener = (id: string): NodeLiveListener => ({
      status: (status, limits) => frame({ type: "status", id, status, limits }),
      stats: (stats) => frame({ type: "stats", id, ...stats }),
      gone: () => {
        watching.delete(id);
        frame({ type: "gone", id });
      },
      unreachable: () => {},
    });
    if (request.query.events === "1") {
      void events
        .subscribe(
          request.query.after,
          (event) => frame({ type: "event", event }),
          () => socket.close(),
        )
        .then((end) => {
          if (closed) end();
          else endEvents = end;
        });
    }
    const checker = loadValue();
    // Listened to at once: the panel's first subscribe follows the upgrade without a pause.
    socket.on("message", async (data) => {
      const { Value } = await checker;
      let request: unknown;
      try {
        request = JSON.parse(String(data));
      } catch {
        request = undefined;
      }
      if (!Value.Check(LiveRequestFrame, request)) return refuse(socket);
      for (const id of request.ids) {
        watching.get(id)?.();
        watching.delete(id);
        if (request.type === "unsubscribe" || watching.size >= maxWatchedPerStream) continue;
        watching.set(id, live.watch(id, listener(id)));
      }
    });
    socket.on("close", () => {
      closed = true;
      endEvents?.();
      for (const stop of watching.values()) stop();
      watching.clear();
    });
  });
}

function refuse(socket: WebSocket): void {
  socket.close(1008, "a frame must be a live-wire subscribe or unsubscribe");
}
