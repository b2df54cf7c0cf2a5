import type { ConsoleChunk } from "./console-buffer.ts";

/** How long console output is gathered before it goes out: about one screen refresh or two. */
export const consoleBatchMs = 25;
/** A batch this large goes out at once: a flood is not held back, and frames stay small. */
export const consoleBatchBytes = 64 * 1024;

/**
 * Gathers a server's console chunks into one per short window, so that a
 * server printing line by line costs its watchers one frame per window, not
 * one per line (each frame is a JSON envelope, a base64 copy and a write on
 * every socket). The merged chunk is one object, shared by every watcher.
 */
export class ConsoleBatcher {
  private pending: ConsoleChunk[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: (chunk: ConsoleChunk) => void,
    private readonly windowMs = consoleBatchMs,
    private readonly maxBytes = consoleBatchBytes,
  ) {}

  push(chunk: ConsoleChunk): void {
    this.pending.push(chunk);
    this.bytes += chunk.data.length;
    if (this.bytes >= this.maxBytes) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.windowMs);
      this.timer.unref();
    }
  }

  /** Sends what is gathered now (before a status change, so output and status keep their order). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const chunks = this.pending;
    if (chunks.length === 0) return;
    this.pending = [];
    this.bytes = 0;
    const last = chunks[chunks.length - 1];
    this.emit(
      chunks.length === 1 ? last : { time: last.time, data: Buffer.concat(chunks.map((c) => c.data)) },
    );
  }
}
