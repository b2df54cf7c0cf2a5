import type { SocketMessage } from "../link/server-wire.ts";

/** How long console output gathers before it goes out as one frame. */
export const consoleBatchMs = 25;
/** A frame's most raw bytes: a flood goes out in frames of this size as they fill, never as one huge frame. */
export const consoleBatchBytes = 64 * 1024;

type Watcher = (message: SocketMessage) => void;

/**
 * One server's console output on its way to the sockets that watch it. A
 * server printing as fast as it can writes many small chunks; sending each as
 * its own frame to every watcher costs a frame, a base64 encoding and a write
 * per chunk per socket, and under load the queue of them delays every line by
 * seconds. Output is gathered instead for a short window (from its first byte,
 * so a lone line waits at most that long) and sent as one frame, encoded once,
 * to every watcher; a flood goes out early in frames of a bounded size (one
 * frame larger than a socket's send bound would close even a reading watcher). The frame is the one the reference sends:
 * `{type: "console", data: {epoch: 0, logs: base64}}`.
 */
export class ConsoleBatch {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly windowMs = consoleBatchMs) {}

  /** Adds a watcher; answers its removal. */
  watch(watcher: Watcher): () => void {
    this.watchers.add(watcher);
    return () => {
      this.watchers.delete(watcher);
      if (this.watchers.size === 0) this.drop();
    };
  }

  get watched(): boolean {
    return this.watchers.size > 0;
  }

  push(data: Buffer): void {
    if (this.watchers.size === 0 || data.length === 0) return;
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes >= consoleBatchBytes) {
      this.flush();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.windowMs);
      this.timer.unref();
    }
  }

  /** Sends what has gathered now: before a status change, so no watcher sees it ahead of the output before it. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const bytes = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    for (let at = 0; at < bytes.length; at += consoleBatchBytes) {
      const logs = bytes.subarray(at, at + consoleBatchBytes).toString("base64");
      const frame: SocketMessage = { type: "console", data: { epoch: 0, logs } };
      for (const watcher of this.watchers) watcher(frame);
    }
  }

  private drop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.pendingBytes = 0;
  }
}
