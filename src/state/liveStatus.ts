import { signal } from "@preact/signals-react";
import type { LiveFrame, LiveWatchFrame } from "../../server/contract/api/live.ts";
import { closeRightsChanged, liveMaxWatchedIds } from "../../server/contract/constants.ts";
import type { SocketLike, SocketState } from "./live/reconnectingSocket";
import { liveStats, setServerStats, setServerStatus } from "./serverStatus";

// Status and stats of every server on screen through one socket, GET /api/live (issue 25). The
// screens that show servers say which ones (watchLive); the socket's state tells them whether they
// must poll instead (only while it cannot be had).

/** Waits before opening again after a close, doubling up to the last. */
export const LIVE_RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

/** The part of a WebSocket this module uses: what the console's uses, and send. */
export interface LiveSocketLike extends SocketLike {
  send(text: string): void;
}

export interface LiveChannelOptions {
  url?: string;
  createSocket?: (url: string) => LiveSocketLike;
}

/**
 * The one /api/live socket of this page. It is open while any screen watches a server and closed
 * when none does. Every watch() adds ids; the socket is told the union (the first liveMaxWatchedIds, the most the panel takes). A
 * lost socket is opened again after a growing wait; meanwhile `state` says "closed" and screens poll.
 */
export class LiveChannel {
  readonly state = signal<SocketState>("closed");
  private readonly counts = new Map<string, number>();
  private ws: LiveSocketLike | undefined;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private sendQueued = false;

  constructor(private readonly options: LiveChannelOptions = {}) {}

  /** Watches the servers until the answered function is called. */
  watch(ids: readonly string[]): () => void {
    for (const id of ids) this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    this.changed();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const id of ids) {
        const left = (this.counts.get(id) ?? 1) - 1;
        if (left > 0) this.counts.set(id, left);
        else this.counts.delete(id);
      }
      this.changed();
    };
  }

  private changed(): void {
    if (this.counts.size === 0) {
      this.shut();
      return;
    }
    if (!this.ws && this.retryTimer === undefined) this.connect();
    else this.queueSend();
  }

  /** Several screens' watches in one task make one frame. */
  private queueSend(): void {
    if (this.sendQueued) return;
    this.sendQueued = true;
    queueMicrotask(() => {
      this.sendQueued = false;
      if (this.state.value !== "open" || !this.ws) return;
      const ids = [...this.counts.keys()].slice(0, liveMaxWatchedIds);
      this.ws.send(JSON.stringify({ type: "watch", ids } satisfies LiveWatchFrame));
    });
  }

  private url(): string {
    return this.options.url ?? `${location.origin.replace(/^http/, "ws")}/api/live`;
  }

  private connect(): void {
    this.state.value = "connecting";
    let ws: LiveSocketLike;
    try {
      ws = this.options.createSocket
        ? this.options.createSocket(this.url())
        : (new WebSocket(this.url()) as unknown as LiveSocketLike);
    } catch {
      this.lost();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.failures = 0;
      this.state.value = "open";
      this.queueSend();
    };
    ws.onmessage = (ev) => {
      if (this.ws === ws) receive(ev.data);
    };
    ws.onerror = () => {
      // a close event follows
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      // Rights changed on a server: open again at once, to be told what may be seen now.
      if ((ev as { code?: number } | undefined)?.code === closeRightsChanged) this.failures = 0;
      this.lost();
    };
  }

  private lost(): void {
    this.state.value = "closed";
    if (this.counts.size === 0) return;
    const wait = LIVE_RETRY_MS[Math.min(this.failures, LIVE_RETRY_MS.length - 1)];
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.ws && this.counts.size > 0) this.connect();
    }, wait);
  }

  private shut(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const ws = this.ws;
    this.ws = undefined;
    this.state.value = "closed";
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
    try {
      ws.close(1000);
    } catch {
      // already closing
    }
  }
}

function receive(raw: unknown): void {
  let frame: LiveFrame;
  try {
    frame = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw as Uint8Array));
  } catch {
    return;
  }
  if (frame.type === "status") {
    if (!frame.running) liveStats(frame.id).value = undefined;
    setServerStatus(frame.id, frame);
  } else if (frame.type === "stats") {
    const { type: _type, id, ...figures } = frame;
    setServerStats(id, figures);
  }
}

let channel: LiveChannel | undefined;

/** This page's live channel, made on first use. */
export function liveChannel(): LiveChannel {
  channel ??= new LiveChannel();
  return channel;
}
