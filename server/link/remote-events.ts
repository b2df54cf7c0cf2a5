import type { NodeEvent, NodeEvents } from "../contract/node/node-events.ts";
import type { NodeLiveStream } from "./node-live-stream.ts";

/**
 * A remote node's events, on its live stream (GET /daemon/live?events=1): the
 * panel's one socket to the node carries them with the live status. The
 * stream reconnects by itself from the last event heard, so `onEnd` is never
 * called: the events go on until the stop.
 */
export class RemoteEvents implements NodeEvents {
  constructor(private readonly stream: NodeLiveStream) {}

  async subscribe(
    after: string | undefined,
    onEvent: (event: NodeEvent) => void,
    _onEnd: () => void,
  ): Promise<() => void> {
    return this.stream.events(after, onEvent);
  }
}
