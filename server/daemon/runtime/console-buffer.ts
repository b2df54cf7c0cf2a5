/**
 * A server's recent console output: chunks stamped with Unix time in
 * microseconds, bounded by total bytes (oldest dropped first). Readers ask
 * for everything after a time they saw (`GET …/console?time=`), listeners
 * get each chunk as it arrives (the WebSocket).
 */
export interface ConsoleChunk {
  time: number;
  data: Buffer;
}

export type ConsoleListener = (chunk: ConsoleChunk) => void;

let lastStamp = 0;

/** Microseconds since the epoch, strictly increasing within this process so no two chunks share a stamp. */
export function nowMicros(): number {
  const stamp = Math.max(Date.now() * 1000, lastStamp + 1);
  lastStamp = stamp;
  return stamp;
}

export class ConsoleBuffer {
  private readonly chunks: ConsoleChunk[] = [];
  private head = 0;
  private bytes = 0;
  private readonly listeners = new Set<ConsoleListener>();

  constructor(readonly capacityBytes = 50 * 1024) {}

  write(data: Buffer | string): void {
    const full = typeof data === "string" ? Buffer.from(data) : data;
    if (full.length === 0) return;
    const time = nowMicros();
    // Only the ring keeps at most its capacity: a listener gets the whole chunk (one read from a
    // busy server's pipe can be larger than the ring, and a watcher must not lose lines of it).
    const buf = full.length > this.capacityBytes ? full.subarray(full.length - this.capacityBytes) : full;
    const chunk = { time, data: buf };
    this.chunks.push(chunk);
    this.bytes += buf.length;
    while (this.bytes > this.capacityBytes) this.evictOldest(this.bytes - this.capacityBytes);
    // Compact now and then rather than shifting on every eviction.
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks.splice(0, this.head);
      this.head = 0;
    }
    const live = buf === full ? chunk : { time, data: full };
    for (const listener of this.listeners) listener(live);
  }

  /**
   * Makes room for `excess` bytes at the old end. A large oldest chunk (one read of a flooding
   * server's pipe fills the whole ring) loses only its first lines, cut at a line's end: dropped
   * whole, the one line that follows (its exit notice) would leave nothing else. A large chunk
   * with no line end to cut at (one long line: a dump, a progress bar redrawn with \r) loses its
   * first bytes, cut between two characters; a small one goes whole.
   */
  private evictOldest(excess: number): void {
    const oldest = this.chunks[this.head];
    const lineEnd = oldest.data.indexOf(0x0a, excess - 1);
    if (lineEnd >= 0 && lineEnd < oldest.data.length - 1) {
      this.cutOldest(lineEnd + 1);
      return;
    }
    if (oldest.data.length * 2 > this.capacityBytes) {
      let cut = excess;
      // Not inside a UTF-8 character: continuation bytes are 10xxxxxx.
      while (cut < oldest.data.length && (oldest.data[cut] & 0xc0) === 0x80) cut++;
      if (cut < oldest.data.length) {
        this.cutOldest(cut);
        return;
      }
    }
    this.bytes -= oldest.data.length;
    this.head++;
  }

  private cutOldest(bytes: number): void {
    const oldest = this.chunks[this.head];
    // A new object: listeners may still hold the one they were given.
    this.chunks[this.head] = { time: oldest.time, data: oldest.data.subarray(bytes) };
    this.bytes -= bytes;
  }

  /** Output newer than `time` (µs), and the stamp to ask from next time. */
  since(time: number): { epoch: number; logs: Buffer } {
    const parts: Buffer[] = [];
    for (let i = this.chunks.length - 1; i >= this.head && this.chunks[i].time > time; i--) {
      parts.push(this.chunks[i].data);
    }
    parts.reverse();
    return { epoch: nowMicros(), logs: Buffer.concat(parts) };
  }

  subscribe(listener: ConsoleListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.chunks.length = 0;
    this.head = 0;
    this.bytes = 0;
  }
}
