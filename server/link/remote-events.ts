import type { NodeEvent, NodeEvents } from "../contract/node/node-events.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's events, over the daemon's WebSocket GET /daemon/events. */
export class RemoteEvents implements NodeEvents {
  constructor(private readonly http: NodeHttp) {}

  async subscribe(
    after: string | undefined,
    onEvent: (event: NodeEvent) => void,
    onEnd: () => void,
  ): Promise<() => void> {
    const query = after === undefined ? "" : `?after=${encodeURIComponent(after)}`;
    const url = `${this.http.address.baseUrl.replace(/^http/, "ws")}/daemon/events${query}`;
    const { default: WebSocket } = await import("ws");
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${this.http.token()}` } });
      let opened = false;
      socket.on("open", () => {
        opened = true;
        resolve(() => socket.close());
      });
      socket.on("message", (data) => {
        let event: NodeEvent;
        try {
          event = JSON.parse(data.toString());
        } catch {
          return; // A frame that is not JSON is not an event.
        }
        onEvent(event);
      });
      socket.on("error", (error) => {
        if (!opened) reject(this.http.unreachable(error));
      });
      socket.on("close", () => {
        if (opened) onEnd();
      });
    });
  }
}
