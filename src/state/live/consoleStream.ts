import type { ConsoleAnswer } from "../../api/servers";
import { decodeLogs } from "../../api/servers";
import { coveredPrefix, overlapLength } from "./consoleJoin";

// One opened server's console output as one ordered byte stream, whether it came by socket frame
// or by HTTP read (spec §4). It keeps the server time (epoch, µs) up to which output was delivered,
// so each read asks only for what is new.
//
// On every socket open the output since the last known point is read first; socket frames that
// arrive meanwhile are held and those the read already had are left out. After a lost socket the
// first read is a resync: it reads from a little before the estimated last point and leaves out
// what was already shown. A server that cut this watcher off for being too slow (1013) has dropped
// output; if the resync cannot join onto what was shown (the ring moved on meanwhile), listeners
// are told of the gap, at its place in the output.

const UNHEARD_MAX_BYTES = 1 << 20;
/** How far before the estimated last point a resync reads, so that nothing between is skipped. */
const RESYNC_MARGIN_US = 2_000_000;
/** Output kept to find where a resync read joins onto what was shown (more than a node's ring holds). */
const SHOWN_TAIL_BYTES = 64 * 1024;

interface ConsoleListener {
  onBytes: (bytes: Uint8Array) => void;
  onGap?: () => void;
}

export class ConsoleStream {
  /** Server time (µs) up to which console output was delivered. */
  private epoch = 0;
  /** A server time and the local time it was read at, to place socket frames (epoch 0) in server time. */
  private clockPair: { server: number; local: number } | undefined;
  private lastFrameAt: number | undefined;
  /** Socket console frames held while the catch-up read runs. */
  private held: Uint8Array[] | undefined;
  /** The bytes the catch-up read answered, to leave out held frames it already had. */
  private lastRead: Uint8Array | undefined;
  private readonly listeners = new Set<ConsoleListener>();
  /** Output (and gaps, as null) kept while no one listens, up to UNHEARD_MAX_BYTES (the newest). */
  private unheard: (Uint8Array | null)[] = [];
  private unheardBytes = 0;
  /** The end of the output shown, newest last, up to SHOWN_TAIL_BYTES. */
  private shown: Uint8Array[] = [];
  private shownBytes = 0;
  /** Set by a lost socket: the next read joins onto what was shown. */
  private resync: "after-loss" | "after-drop" | undefined;

  /**
   * `read`: the output since a server time (GET …/console); `alive`: false once the owner closed,
   * so a late answer is dropped.
   */
  constructor(
    private readonly read: (since: number) => Promise<ConsoleAnswer>,
    private readonly alive: () => boolean = () => true,
  ) {}

  /** Bytes as they arrive, and `onGap` where output was lost (in order); returns the unsubscribe. */
  listen(onBytes: (bytes: Uint8Array) => void, onGap?: () => void): () => void {
    const listener = { onBytes, onGap };
    this.listeners.add(listener);
    // output that came before anyone listened (a console mounted after start)
    const unheard = this.unheard;
    this.unheard = [];
    this.unheardBytes = 0;
    for (const bytes of unheard) {
      if (bytes) onBytes(bytes);
      else onGap?.();
    }
    return () => this.listeners.delete(listener);
  }

  /** A socket console frame (base64 logs). */
  frame(logs: string): void {
    const bytes = decodeLogs(logs);
    if (this.held) this.held.push(bytes);
    else {
      this.lastFrameAt = Date.now();
      this.emit(bytes);
    }
  }

  /** The socket opened: frames wait until the catch-up read (readNew) is in; then endCatchUp. */
  beginCatchUp(): void {
    this.held = [];
    this.lastRead = undefined;
  }

  /**
   * Emits the frames held during the catch-up read. Those printed before the server answered it
   * are already at the end of its answer (same bytes, same order): they are left out.
   */
  endCatchUp(): void {
    const held = this.held;
    const tail = this.lastRead;
    this.held = undefined;
    this.lastRead = undefined;
    if (!held?.length) return;
    const skip = tail ? coveredPrefix(held, tail) : 0;
    this.lastFrameAt = Date.now();
    for (const bytes of held.slice(skip)) this.emit(bytes);
  }

  /** The socket was cut off as too slow: output was dropped, the next read looks for a gap. */
  dropped(): void {
    this.resync = "after-drop";
  }

  /**
   * The socket went away. Frames held during an unfinished catch-up all lie after the last known
   * point: the next read has them again, so they are dropped here rather than shown twice. Only a
   * socket that was open delivered output past the last read (a refused retry did not).
   */
  lost(wasOpen: boolean): void {
    this.held = undefined;
    this.lastRead = undefined;
    this.placeEpochAtLastFrame();
    if (wasOpen && this.epoch > 0) {
      this.resync ??= "after-loss";
      this.epoch = Math.max(1, this.epoch - RESYNC_MARGIN_US);
    }
  }

  /**
   * Output since the last known point. Reads may overlap (a poll still out when the socket opens):
   * an answer counts only if no other answer moved the point meanwhile, so nothing shows twice.
   */
  async readNew(): Promise<void> {
    const since = this.epoch;
    try {
      const answer = await this.read(since);
      if (!this.alive() || since !== this.epoch) return;
      const epoch = Number(answer.epoch) || 0;
      if (epoch > 0) {
        this.epoch = epoch;
        this.clockPair = { server: epoch, local: Date.now() };
        this.lastFrameAt = undefined;
      }
      let bytes = decodeLogs(answer.logs ?? "");
      if (this.held) this.lastRead = bytes;
      if (this.resync) bytes = this.joinResync(bytes);
      this.emit(bytes);
    } catch {
      // next round
    }
  }

  /** A resync read without what was already shown; a gap before it if output was dropped and is not all there. */
  private joinResync(bytes: Uint8Array): Uint8Array {
    const dropped = this.resync === "after-drop";
    this.resync = undefined;
    const shown = this.shownTail();
    const joined = overlapLength(shown, bytes);
    if (dropped && joined === 0 && shown.length > 0) this.emitGap();
    return bytes.subarray(joined);
  }

  private shownTail(): Uint8Array {
    if (this.shown.length !== 1) {
      const all = new Uint8Array(this.shownBytes);
      let at = 0;
      for (const part of this.shown) {
        all.set(part, at);
        at += part.length;
      }
      this.shown = [all];
    }
    return this.shown[0] ?? new Uint8Array(0);
  }

  /**
   * Socket frames carry no time (epoch 0). Their server time is estimated from the last read's
   * epoch and the local clock, so polling resumes where the socket stopped instead of repeating
   * everything since the last read.
   */
  private placeEpochAtLastFrame(): void {
    if (!this.clockPair || this.lastFrameAt === undefined) return;
    const estimate = this.clockPair.server + (this.lastFrameAt - this.clockPair.local) * 1000;
    if (estimate > this.epoch) this.epoch = Math.floor(estimate);
    this.lastFrameAt = undefined;
  }

  private emit(bytes: Uint8Array): void {
    if (!bytes.length) return;
    this.keepShown(bytes);
    if (this.listeners.size === 0) {
      this.unheard.push(bytes);
      this.unheardBytes += bytes.length;
      while (this.unheardBytes > UNHEARD_MAX_BYTES && this.unheard.length > 1) {
        this.unheardBytes -= this.unheard.shift()?.length ?? 0;
      }
      return;
    }
    for (const listener of this.listeners) listener.onBytes(bytes);
  }

  private emitGap(): void {
    if (this.listeners.size === 0) this.unheard.push(null);
    for (const listener of this.listeners) listener.onGap?.();
  }

  private keepShown(bytes: Uint8Array): void {
    const part = bytes.length > SHOWN_TAIL_BYTES ? bytes.subarray(bytes.length - SHOWN_TAIL_BYTES) : bytes;
    this.shown.push(part);
    this.shownBytes += part.length;
    while (this.shownBytes - (this.shown[0]?.length ?? 0) >= SHOWN_TAIL_BYTES) {
      this.shownBytes -= this.shown.shift()?.length ?? 0;
    }
  }
}
