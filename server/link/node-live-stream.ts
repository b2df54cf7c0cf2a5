import type { WebSocket } from "ws";
import {
  type LiveNodeFrame,
  type LiveRequestFrame,
  maxIdsPerLiveFrame,
  type NodeLive,
  type NodeLiveListener,
} from "../contract/node/live-wire.ts";
import type { ServerStatusView } from "../contract/node/server-wire.ts";
import type { ServerLimits } from "../templates/index.ts";
import type { NodeHttp } from "./node-http.ts";

/** One server on the stream: its listeners, and its last status for a listener who joins later. */
interface Entry {
  readonly listeners: Set<NodeLiveListener>;
  status?: { status: ServerStatusView; limits: ServerLimits };
}

/** Reconnection waits: at once after a drop, then doubling from this, up to `maxBackoffMs`. */
const firstBackoffMs = 500;
/** A stream up this long counts as steady: its drop is not one more of a series. */
const steadyAfterMs = 10_000;
/** A stream with no frame nor pong for this long is taken for dead (a host that vanished sends no FIN). */
const pingEveryMs = 20_000;

/**
 * A remote node's live stream (GET /daemon/live, contract/node/live-wire.ts):
 * one WebSocket for the status, stats and limits of every server the panel
 * watches on that node. It opens with the first watched server and closes
 * with the last; servers join and leave it by subscribe/unsubscribe frames,
 * sent together once per turn of the event loop (a watch of a list's page
 * is one frame). A stream that drops is opened again at once, then with a
 * doubling wait; while it cannot be had, every listener hears `unreachable`
 * once, and their servers' status again when it is back.
 */
export class NodeLiveStream implements NodeLive {
  private readonly entries = new Map<string, Entry>();
  /** The ids the node streams on the current connection (asked for there and not dropped since). */
  private readonly onNode = new Set<string>();
  /** Ids whose listeners need their status told afresh (a listener joined with none known). */
  private readonly fresh = new Set<string>();
  private socket?: WebSocket;
  /** Between connect() and the socket's making (ws loads on the first stream). */
  private opening = false;
  private connected = false;
  private flushing = false;
  private retry?: NodeJS.Timeout;
  private pinger?: NodeJS.Timeout;
  private failures = 0;
  /** The listeners have been told the node cannot be reached, and nothing came since. */
  private down = false;
  /** Connections opened so far (for tests). */
  opened = 0;

  constructor(
    private readonly http: NodeHttp,
    private readonly maxBackoffMs = 5000,
  ) {}

  watch(id: string, listener: NodeLiveListener): () => void {
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { listeners: new Set() };
      this.entries.set(id, entry);
      // Still on the node when it left in this same turn: its status is asked for again.
      this.fresh.add(id);
    }
    entry.listeners.add(listener);
    const known = entry.status;
    if (known) queueMicrotask(() => listener.status(known.status, known.limits));
    else if (this.down) queueMicrotask(() => listener.unreachable());
    this.connect();
    this.scheduleFlush();
    const joined = entry;
    return () => {
      joined.listeners.delete(listener);
      if (joined.listeners.size > 0 || this.entries.get(id) !== joined) return;
      this.entries.delete(id);
      this.fresh.delete(id);
      if (this.entries.size === 0) this.shut();
      else this.scheduleFlush();
    };
  }

  /** Whether a connection is open or being opened (for tests). */
  get active(): boolean {
    return this.socket !== undefined || this.retry !== undefined;
  }

  private connect(): void {
    if (this.socket || this.retry || this.opening || this.entries.size === 0) return;
    this.opening = true;
    void this.open()
      .catch(() => {
        if (this.entries.size === 0) return;
        this.unreachable();
        this.again(this.maxBackoffMs);
      })
      .finally(() => {
        this.opening = false;
      });
  }

  private async open(): Promise<void> {
    const { default: WebSocket } = await import("ws");
    if (this.socket || this.entries.size === 0) return;
    const url = `${this.http.address.baseUrl.replace(/^http/, "ws")}/daemon/live`;
    const socket = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.http.token()}` },
      handshakeTimeout: 5000,
    });
    this.socket = socket;
    this.opened++;
    let alive = true;
    let openedAt = 0;
    socket.on("open", () => {
      if (this.socket !== socket) return;
      openedAt = Date.now();
      this.connected = true;
      this.down = false;
      this.onNode.clear();
      this.pinger = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, pingEveryMs);
      this.pinger.unref();
      this.flush();
    });
    socket.on("pong", () => {
      alive = true;
    });
    socket.on("message", (data) => {
      alive = true;
      let frame: LiveNodeFrame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return; // A frame that is not JSON is not ours.
      }
      this.received(frame);
    });
    // An error is followed by a close: the close decides what comes next.
    socket.on("error", () => {});
    socket.on("close", () => {
      if (this.socket !== socket) return;
      const wasOpen = this.connected;
      this.socket = undefined;
      this.connected = false;
      this.onNode.clear();
      clearInterval(this.pinger);
      if (this.entries.size === 0) return;
      // A stream that was up is asked for again at once (the node cut a slow reader, or restarts);
      // one that could not be had means the node is away. One that keeps dropping as soon as it
      // opens waits longer each time, as a failed one does.
      if (!wasOpen) this.unreachable();
      if (wasOpen && Date.now() - openedAt > steadyAfterMs) this.failures = 0;
      this.again(wasOpen && this.failures === 0 ? 0 : firstBackoffMs * 2 ** Math.min(this.failures, 10));
      this.failures++;
    });
  }

  private again(delayMs: number): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(
      () => {
        this.retry = undefined;
        this.connect();
      },
      Math.min(delayMs, this.maxBackoffMs),
    );
    this.retry.unref();
  }

  private received(frame: LiveNodeFrame): void {
    const entry = this.entries.get(frame.id);
    if (!entry) return;
    if (frame.type === "status") {
      this.down = false;
      entry.status = { status: frame.status, limits: frame.limits };
      for (const listener of [...entry.listeners]) listener.status(frame.status, frame.limits);
    } else if (frame.type === "stats") {
      const { cpu, memory, disk } = frame;
      const stats = disk === undefined ? { cpu, memory } : { cpu, memory, disk };
      for (const listener of [...entry.listeners]) listener.stats(stats);
    } else if (frame.type === "gone") {
      this.onNode.delete(frame.id);
      this.entries.delete(frame.id);
      for (const listener of [...entry.listeners]) listener.gone();
      if (this.entries.size === 0) this.shut();
    }
  }

  /** Said once per outage: what was known of the node's servers is not known any more. */
  private unreachable(): void {
    if (this.down) return;
    this.down = true;
    this.fresh.clear();
    for (const entry of [...this.entries.values()]) {
      entry.status = undefined;
      for (const listener of [...entry.listeners]) listener.unreachable();
    }
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      this.flush();
    });
  }

  /** Brings the node's set of streamed servers to the watched one, in at most two frames. */
  private flush(): void {
    if (!this.connected || !this.socket) return;
    const subscribe = [...this.entries.keys()].filter((id) => !this.onNode.has(id) || this.fresh.has(id));
    const unsubscribe = [...this.onNode].filter((id) => !this.entries.has(id));
    this.fresh.clear();
    this.send("unsubscribe", unsubscribe);
    this.send("subscribe", subscribe);
    for (const id of unsubscribe) this.onNode.delete(id);
    for (const id of subscribe) this.onNode.add(id);
  }

  /** In frames within the contract's bound on ids. */
  private send(type: LiveRequestFrame["type"], ids: string[]): void {
    for (let at = 0; at < ids.length; at += maxIdsPerLiveFrame) {
      const frame: LiveRequestFrame = { type, ids: ids.slice(at, at + maxIdsPerLiveFrame) };
      this.socket?.send(JSON.stringify(frame));
    }
  }

  private shut(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    clearInterval(this.pinger);
    const socket = this.socket;
    this.socket = undefined;
    this.connected = false;
    this.down = false;
    this.failures = 0;
    this.onNode.clear();
    this.fresh.clear();
    if (socket) {
      if (socket.readyState === socket.CONNECTING) socket.terminate();
      else socket.close();
    }
  }
}
