import { i18n } from "@lingui/core";
import { type Signal, signal } from "@preact/signals-react";
import {
  type ConsoleAnswer,
  decodeLogs,
  getConsole,
  getStats,
  getStatus,
  type ServerStats,
  type ServerStatusAnswer,
  socketUrl,
  type TransferProgress,
} from "../api/servers";
import { toastError } from "../components/toastStore";
import { errorMessage } from "../i18n/errorMessages";

// Live state of servers (spec §4, reference §4): a status signal per server, and for an opened
// server a socket with the reconnect / poll fallback state machine.

/**
 * `starting`: running, but an imported egg's done line has not appeared in its console yet;
 * `unreachable`: the server's node cannot be reached, so its status is not known.
 */
export type ServerStatus = "unknown" | "unreachable" | "installing" | "starting" | "online" | "offline";
/** A status as the panel answers it, or word that the server's node cannot be reached (/api/live). */
export type StatusNews = Partial<ServerStatusAnswer> & { unreachable?: boolean };
export type SocketState = "connecting" | "open" | "closed";

export const SOCKET_RETRY_MS = 5000;
export const SOCKET_MAX_FAILURES = 5;
export const SOCKET_FAILURE_RESET_MS = 30_000;
export const POLL_MS = 5000;
const UNHEARD_MAX_BYTES = 1 << 20;
/** The close code of a watcher the server cut off for reading too slowly (server/http/socket-send.ts). */
export const CLOSE_TOO_SLOW = 1013;
/** How far before the estimated last point a resync reads, so that nothing between is skipped. */
const RESYNC_MARGIN_US = 2_000_000;
/** Output kept to find where a resync read joins onto what was shown (more than a node's ring holds). */
const SHOWN_TAIL_BYTES = 64 * 1024;

/** installing wins, then running (starting until its done line); before any answer the status is unknown (spec §4). */
export function statusOf(answer: StatusNews | undefined): ServerStatus {
  if (!answer) return "unknown";
  if (answer.unreachable) return "unreachable";
  if (answer.installing) return "installing";
  if (!answer.running) return "offline";
  return answer.starting ? "starting" : "online";
}

const statuses = new Map<string, Signal<ServerStatus>>();

/** The one status signal of a server, shared by the list and the server view. */
export function serverStatus(id: string): Signal<ServerStatus> {
  let s = statuses.get(id);
  if (!s) {
    s = signal<ServerStatus>("unknown");
    statuses.set(id, s);
  }
  return s;
}

const installedFlags = new Map<string, Signal<boolean | undefined>>();

/** Whether a server's install steps have run once; undefined until its node says. */
export function serverInstalled(id: string): Signal<boolean | undefined> {
  let s = installedFlags.get(id);
  if (!s) {
    s = signal<boolean | undefined>(undefined);
    installedFlags.set(id, s);
  }
  return s;
}

const installFailures = new Map<string, Signal<string | undefined>>();

/** While a server is not installed: why its last install failed (undefined: none failed). */
export function serverInstallFailure(id: string): Signal<string | undefined> {
  let s = installFailures.get(id);
  if (!s) {
    s = signal<string | undefined>(undefined);
    installFailures.set(id, s);
  }
  return s;
}

export function setServerStatus(id: string, answer: StatusNews): void {
  serverStatus(id).value = statusOf(answer);
  if (typeof answer.installed === "boolean") {
    serverInstalled(id).value = answer.installed;
    serverInstallFailure(id).value = answer.installed ? undefined : answer.installFailure;
  }
}

/** What the server lets this user read (server.console / server.status / server.stats). */
export interface LiveChannels {
  console: boolean;
  status: boolean;
  stats: boolean;
}

/** The part of a WebSocket this module uses; the browser's and the `ws` package's both fit. */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(code?: number, reason?: string): void;
}

/** The HTTP reads polling uses (the real API by default). */
export interface LiveSource {
  status(id: string): Promise<ServerStatusAnswer>;
  stats(id: string): Promise<ServerStats>;
  console(id: string, time: number): Promise<ConsoleAnswer>;
}

export interface LiveOptions {
  channels: LiveChannels;
  /** Socket address; defaults to this origin's /api/servers/{id}/socket. */
  url?: string;
  createSocket?: (url: string) => SocketLike;
  source?: LiveSource;
  /** Raised once after SOCKET_MAX_FAILURES failed attempts; defaults to the ErrSocketFailed toast. */
  onFailure?: () => void;
}

// Background reads: a failed poll is retried next round, never a toast every 5 s; a 401 still
// ends the session through the socket's own close and the next screen's calls.
const quiet = { exempt: true } as const;
const apiSource: LiveSource = {
  status: (id) => getStatus(id, quiet),
  stats: (id) => getStats(id, quiet),
  console: (id, time) => getConsole(id, time, quiet),
};

function socketFailed(): void {
  const text = errorMessage("ErrSocketFailed");
  toastError(text ? i18n._(text) : "Socket closed unexpectedly");
}

interface ConsoleListener {
  onBytes: (bytes: Uint8Array) => void;
  onGap?: () => void;
}

type Frame =
  | { type: "console"; data: { logs?: string } }
  | { type: "status"; data: ServerStatusAnswer }
  | { type: "stat"; data: ServerStats }
  | { type: "transfer"; data: TransferProgress };

/**
 * How many first bytes of `next` are the last bytes of `shown`: the longest such overlap that starts
 * at a line start in `shown` (a shorter, mid-line match is more likely chance than the same output).
 * A prefix function over next + separator + shown, so linear in their lengths.
 */
export function overlapLength(shown: Uint8Array, next: Uint8Array): number {
  const m = Math.min(next.length, shown.length);
  if (m === 0) return 0;
  const seq = new Int32Array(m + 1 + shown.length);
  seq.set(next.subarray(0, m));
  seq[m] = -1;
  seq.set(shown, m + 1);
  const pi = new Int32Array(seq.length);
  for (let i = 1; i < seq.length; i++) {
    let k = pi[i - 1];
    while (k > 0 && seq[i] !== seq[k]) k = pi[k - 1];
    if (seq[i] === seq[k]) k++;
    pi[i] = k;
  }
  const newline = 10;
  for (let k = pi[seq.length - 1]; k > 0; k = pi[k - 1]) {
    const start = shown.length - k;
    if (start === 0 || shown[start - 1] === newline) return k;
  }
  return 0;
}

/** How many of the first frames, joined, are exactly the end of `tail`. */
export function coveredPrefix(frames: readonly Uint8Array[], tail: Uint8Array): number {
  let total = 0;
  for (const f of frames) total += f.length;
  for (let count = frames.length; count > 0; count--) {
    if (total <= tail.length && endsWith(tail, frames, count, total)) return count;
    total -= frames[count - 1].length;
  }
  return 0;
}

function endsWith(tail: Uint8Array, frames: readonly Uint8Array[], count: number, total: number): boolean {
  let at = tail.length - total;
  for (let i = 0; i < count; i++) {
    const f = frames[i];
    for (let j = 0; j < f.length; j++) if (tail[at + j] !== f[j]) return false;
    at += f.length;
  }
  return true;
}

function parseFrame(raw: unknown): Frame | undefined {
  const text = typeof raw === "string" ? raw : raw instanceof Uint8Array ? new TextDecoder().decode(raw) : "";
  try {
    const frame = JSON.parse(text) as Frame;
    return frame && typeof frame === "object" && frame.data && typeof frame.data === "object"
      ? frame
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One opened server's live connection. States: connecting → open → closed. An unexpected close
 * polls GET status/stats/console every 5 s and reconnects after 5 s; the fifth failure in a row
 * raises 'Socket closed unexpectedly' and stops reconnecting (polling goes on); the failure count
 * resets 30 s after a close. close() is deliberate: no reconnect, no timers, a close event.
 *
 * Console output reaches listeners as raw bytes, in order, whether it came by socket or by poll:
 * on every open the output since the last known point is fetched first (socket frames that arrive
 * meanwhile wait), so nothing printed while the socket was down goes missing.
 *
 * After a close the first console read is a resync: it reads from a little before the estimated
 * last point and leaves out what was already shown. A server that cut this watcher off for being
 * too slow (1013) has dropped output; if the resync cannot join onto what was shown (the ring moved
 * on meanwhile), listeners are told of the gap, at its place in the output.
 */
export class ServerLive {
  readonly socket = signal<SocketState>("connecting");
  readonly status: Signal<ServerStatus>;
  readonly installed: Signal<boolean | undefined>;
  /** Why the last install failed, while not installed. */
  readonly installFailure: Signal<string | undefined>;
  readonly stats = signal<ServerStats | undefined>(undefined);
  /** A move to another node under way (or just ended), as the panel reports it. */
  readonly transfer = signal<TransferProgress | undefined>(undefined);
  /** True after the failure limit: no more automatic reconnects (reconnect() starts over). */
  readonly gaveUp = signal(false);

  private ws: SocketLike | undefined;
  private failures = 0;
  private stopped = false;
  private started = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private resetTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private polling = false;
  /** Server time (µs) up to which console output was delivered. */
  private epoch = 0;
  /** A server time and the local time it was read at, to place socket frames (epoch 0) in server time. */
  private clockPair: { server: number; local: number } | undefined;
  private lastFrameAt: number | undefined;
  /** Socket console frames held while the catch-up read runs. */
  private held: Uint8Array[] | undefined;
  /** The bytes the catch-up read answered, to leave out held frames it already had. */
  private lastRead: Uint8Array | undefined;
  /** Counts of status / stat frames: a read sent before a newer frame arrived is stale. */
  private statusFrames = 0;
  private statFrames = 0;
  private readonly consoleListeners = new Set<ConsoleListener>();
  /** Output (and gaps, as null) kept while no one listens, up to UNHEARD_MAX_BYTES (the newest). */
  private unheard: (Uint8Array | null)[] = [];
  private unheardBytes = 0;
  /** The end of the output shown, newest last, up to SHOWN_TAIL_BYTES. */
  private shown: Uint8Array[] = [];
  private shownBytes = 0;
  /** Set by a close: the next console read joins onto what was shown. */
  private resync: "after-loss" | "after-drop" | undefined;
  private readonly closeListeners = new Set<() => void>();
  private readonly source: LiveSource;
  private readonly url: string;

  constructor(
    readonly id: string,
    private readonly options: LiveOptions,
  ) {
    this.status = serverStatus(id);
    this.installed = serverInstalled(id);
    this.installFailure = serverInstallFailure(id);
    this.source = options.source ?? apiSource;
    this.url = options.url ?? socketUrl(id);
  }

  /**
   * Console bytes as they arrive, and `onGap` where output was lost (in order with the bytes);
   * returns the unsubscribe function.
   */
  onConsole(onBytes: (bytes: Uint8Array) => void, onGap?: () => void): () => void {
    const listener = { onBytes, onGap };
    this.consoleListeners.add(listener);
    // output that came before anyone listened (a console mounted after start)
    const unheard = this.unheard;
    this.unheard = [];
    this.unheardBytes = 0;
    for (const bytes of unheard) {
      if (bytes) onBytes(bytes);
      else onGap?.();
    }
    return () => this.consoleListeners.delete(listener);
  }

  /** Every close of the socket, expected or not. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  start(): this {
    if (!this.started && !this.stopped) {
      this.started = true;
      this.connect();
    }
    return this;
  }

  /** After giving up (or at any time): a fresh attempt with the failure count at zero. */
  reconnect(): void {
    if (this.stopped) return;
    this.failures = 0;
    this.gaveUp.value = false;
    clearTimeout(this.retryTimer);
    if (this.ws) return;
    this.connect();
  }

  /** Reads status and stats now (after an action), whatever the socket is doing. */
  async refresh(): Promise<void> {
    if (!this.stopped) await Promise.all([this.readStatus(), this.readStats()]);
  }

  /** Deliberate close: stops reconnecting and polling, clears timers, emits close. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.resetTimer);
    this.stopPolling();
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      try {
        ws.close(1000);
      } catch {
        // already closing
      }
    }
    this.socket.value = "closed";
    this.emitClose();
  }

  private connect(): void {
    this.socket.value = "connecting";
    let ws: SocketLike;
    try {
      ws = this.options.createSocket
        ? this.options.createSocket(this.url)
        : (new WebSocket(this.url) as unknown as SocketLike);
    } catch {
      this.lost();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.socket.value = "open";
      this.stopPolling();
      void this.catchUp();
    };
    ws.onmessage = (ev) => {
      if (this.ws === ws) this.receive(ev.data);
    };
    ws.onerror = () => {
      // a close event follows
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      const code = (ev as { code?: number } | undefined)?.code;
      if (code === CLOSE_TOO_SLOW) this.resync = "after-drop";
      this.emitClose();
      this.lost();
    };
  }

  /** The socket went away (or never came): poll meanwhile, then retry or give up. */
  private lost(): void {
    const wasOpen = this.socket.value === "open";
    this.socket.value = "closed";
    // Frames held during an unfinished catch-up all lie after the last known point: the first
    // poll reads them again, so they are dropped here rather than shown twice.
    this.held = undefined;
    this.lastRead = undefined;
    this.placeEpochAtLastFrame();
    // Only a socket that was open delivered output past the last read (a refused retry did not).
    if (wasOpen && this.options.channels.console && this.epoch > 0) {
      this.resync ??= "after-loss";
      this.epoch = Math.max(1, this.epoch - RESYNC_MARGIN_US);
    }
    this.failures++;
    clearTimeout(this.resetTimer);
    this.resetTimer = setTimeout(() => {
      this.failures = 0;
    }, SOCKET_FAILURE_RESET_MS);
    this.startPolling();
    if (this.failures >= SOCKET_MAX_FAILURES) {
      if (!this.gaveUp.value) {
        this.gaveUp.value = true;
        (this.options.onFailure ?? socketFailed)();
      }
      return;
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped && !this.ws) this.connect();
    }, SOCKET_RETRY_MS);
  }

  private receive(raw: unknown): void {
    const frame = parseFrame(raw);
    if (!frame) return;
    switch (frame.type) {
      case "console": {
        const bytes = decodeLogs(frame.data.logs ?? "");
        if (this.held) this.held.push(bytes);
        else {
          this.lastFrameAt = Date.now();
          this.emitConsole(bytes);
        }
        return;
      }
      case "status":
        this.statusFrames++;
        setServerStatus(this.id, frame.data);
        return;
      case "stat":
        this.statFrames++;
        this.stats.value = { cpu: Number(frame.data.cpu) || 0, memory: Number(frame.data.memory) || 0 };
        return;
      case "transfer":
        this.transfer.value = frame.data;
        return;
    }
  }

  /** On open: status and stats once (the socket sends them only on change / every 5 s), and the output missed. */
  private async catchUp(): Promise<void> {
    this.held = this.options.channels.console ? [] : undefined;
    this.lastRead = undefined;
    await this.readAll();
    if (this.socket.value === "open") this.flushHeld();
  }

  private readAll(): Promise<unknown> {
    return Promise.all([this.readStatus(), this.readStats(), this.readConsole()]);
  }

  /**
   * Emits the frames held during the catch-up read. Those printed before the server answered it
   * are already at the end of its answer (same bytes, same order): they are left out.
   */
  private flushHeld(): void {
    const held = this.held;
    const tail = this.lastRead;
    this.held = undefined;
    this.lastRead = undefined;
    if (!held?.length) return;
    const skip = tail ? coveredPrefix(held, tail) : 0;
    this.lastFrameAt = Date.now();
    for (const bytes of held.slice(skip)) this.emitConsole(bytes);
  }

  private async readStatus(): Promise<void> {
    if (!this.options.channels.status) return;
    const seen = this.statusFrames;
    try {
      const answer = await this.source.status(this.id);
      if (!this.stopped && seen === this.statusFrames) setServerStatus(this.id, answer);
    } catch {
      // next round
    }
  }

  private async readStats(): Promise<void> {
    if (!this.options.channels.stats) return;
    const seen = this.statFrames;
    try {
      const answer = await this.source.stats(this.id);
      if (!this.stopped && seen === this.statFrames) this.stats.value = answer;
    } catch {
      // next round
    }
  }

  /**
   * Output since the last known point. Reads may overlap (a poll still out when the socket opens):
   * an answer counts only if no other answer moved the point meanwhile, so nothing shows twice.
   */
  private async readConsole(): Promise<void> {
    if (!this.options.channels.console) return;
    const since = this.epoch;
    try {
      const answer = await this.source.console(this.id, since);
      if (this.stopped || since !== this.epoch) return;
      const epoch = Number(answer.epoch) || 0;
      if (epoch > 0) {
        this.epoch = epoch;
        this.clockPair = { server: epoch, local: Date.now() };
        this.lastFrameAt = undefined;
      }
      let bytes = decodeLogs(answer.logs ?? "");
      if (this.held) this.lastRead = bytes;
      if (this.resync) bytes = this.joinResync(bytes);
      this.emitConsole(bytes);
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

  private startPolling(): void {
    if (this.polling || this.stopped) return;
    this.polling = true;
    void this.pollRound();
  }

  private stopPolling(): void {
    this.polling = false;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  private async pollRound(): Promise<void> {
    if (!this.polling) return;
    const hidden = typeof document !== "undefined" && document.hidden;
    if (!hidden) await this.readAll();
    if (!this.polling || this.stopped) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => void this.pollRound(), POLL_MS);
  }

  private emitConsole(bytes: Uint8Array): void {
    if (!bytes.length) return;
    this.keepShown(bytes);
    if (this.consoleListeners.size === 0) {
      this.unheard.push(bytes);
      this.unheardBytes += bytes.length;
      while (this.unheardBytes > UNHEARD_MAX_BYTES && this.unheard.length > 1) {
        this.unheardBytes -= this.unheard.shift()?.length ?? 0;
      }
      return;
    }
    for (const listener of this.consoleListeners) listener.onBytes(bytes);
  }

  private emitGap(): void {
    if (this.consoleListeners.size === 0) this.unheard.push(null);
    for (const listener of this.consoleListeners) listener.onGap?.();
  }

  private keepShown(bytes: Uint8Array): void {
    const part = bytes.length > SHOWN_TAIL_BYTES ? bytes.subarray(bytes.length - SHOWN_TAIL_BYTES) : bytes;
    this.shown.push(part);
    this.shownBytes += part.length;
    while (this.shownBytes - (this.shown[0]?.length ?? 0) >= SHOWN_TAIL_BYTES) {
      this.shownBytes -= this.shown.shift()?.length ?? 0;
    }
  }

  private emitClose(): void {
    for (const listener of this.closeListeners) listener();
  }
}
