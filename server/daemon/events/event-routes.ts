import { NodeEventsQuery as Query } from "../../contract/node/node-events.ts";
import { boundedSend } from "../../http/socket-send.ts";
import type { Router } from "../http/router.ts";
import type { NodeEventLog } from "./node-event-log.ts";

/**
 * GET /daemon/events (WebSocket): the node's events as JSON frames, those
 * after `after` that it still keeps first (RemoteEvents). A panel that reads
 * too slowly is cut off and reconnects from its last event.
 *
 * Kept for a panel of the previous version talking to this node: a panel of
 * this version takes the events on GET /daemon/live (`?events=1`) instead and
 * never opens this route.
 */
export function daemonEventRoutes(api: Router, events: NodeEventLog): void {
  api.socket("/daemon/events", { query: Query }, async (socket, request) => {
    const send = boundedSend(socket);
    const end = await events.subscribe(
      request.query.after,
      (event) => send(JSON.stringify(event)),
      () => socket.close(),
    );
    socket.on("close", end);
  });
}
