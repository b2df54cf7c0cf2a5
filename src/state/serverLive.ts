import { i18n } from "@lingui/core";
import type { Signal } from "@preact/signals-react";
import {
  type ConsoleAnswer,
  getConsole,
  getStats,
  getStatus,
  type ServerStats,
  type ServerStatusAnswer,
  socketUrl,
  type TransferState,
} from "../api/servers";
import { toastError } from "../components/toastStore";
import { errorMessage } from "../i18n/errorMessages";
import { ConsoleStream } from "./live/consoleStream";
import { Poller } from "./live/poller";
import {
  CLOSE_TOO_SLOW,
  ReconnectingSocket,
  type SocketLike,
  type SocketState,
} from "./live/reconnectingSocket";
import { ServerFigures } from "./live/serverFigures";
import type { ServerStatus } from "./serverStatus";

// An opened server's live connection (spec §4, reference §4): its socket and reconnects
// (./live/reconnectingSocket), its console output (./live/consoleStream), the polling fallback
// (./live/poller) and its status and stats (./live/serverFigures), put together here.

/** What the server lets this user read (server.console / server.status / server.stats). */
export interface LiveChannels {
  console: boolean;
  status: boolean;
  stats: boolean;
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

type Frame =
  | { type: "console"; data: { logs?: string } }
  | { type: "status"; data: ServerStatusAnswer }
  | { type: "stat"; data: ServerStats }
  | { type: "transfer"; data: TransferState };

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
 * One opened server's live connection. An unexpected close polls GET status/stats/console every
 * 5 s while the socket reconnects; the fifth failure in a row raises 'Socket closed unexpectedly'
 * and stops reconnecting (polling goes on). close() is deliberate: no reconnect, no timers, a
 * close event. Every open reads status, stats and the output missed once (the socket sends status
 * only on change and stats every few seconds).
 */
export class ServerLive {
  readonly socket: Signal<SocketState>;
  readonly status: Signal<ServerStatus>;
  readonly installed: Signal<boolean | undefined>;
  /** Why the last install failed, while not installed. */
  readonly installFailure: Signal<string | undefined>;
  readonly stats: Signal<ServerStats | undefined>;
  /** A move to another node under way (or just ended), as the panel reports it. */
  readonly transfer: Signal<TransferState | undefined>;
  /** True after the failure limit: no more automatic reconnects (reconnect() starts over). */
  readonly gaveUp: Signal<boolean>;

  private stopped = false;
  private started = false;
  private readonly figures: ServerFigures;
  private readonly output: ConsoleStream;
  private readonly poller: Poller;
  private readonly connection: ReconnectingSocket;
  private readonly closeListeners = new Set<() => void>();
  private readonly source: LiveSource;

  constructor(
    readonly id: string,
    private readonly options: LiveOptions,
  ) {
    this.source = options.source ?? apiSource;
    const alive = () => !this.stopped;
    this.figures = new ServerFigures(id, alive);
    this.output = new ConsoleStream((since) => this.source.console(id, since), alive);
    this.poller = new Poller(() => this.readAll());
    this.connection = new ReconnectingSocket(
      options.url ?? socketUrl(id),
      {
        opened: () => {
          this.poller.stop();
          void this.catchUp();
        },
        message: (data) => this.receive(data),
        closed: (code) => {
          if (code === CLOSE_TOO_SLOW) this.output.dropped();
          this.emitClose();
        },
        lost: (wasOpen) => {
          this.output.lost(wasOpen && options.channels.console);
          if (!this.stopped) this.poller.start();
        },
        gaveUp: () => (options.onFailure ?? socketFailed)(),
      },
      options.createSocket,
    );
    this.socket = this.connection.state;
    this.gaveUp = this.connection.gaveUp;
    this.status = this.figures.status;
    this.installed = this.figures.installed;
    this.installFailure = this.figures.installFailure;
    this.stats = this.figures.stats;
    this.transfer = this.figures.transfer;
  }

  /**
   * Console bytes as they arrive, and `onGap` where output was lost (in order with the bytes);
   * returns the unsubscribe function.
   */
  onConsole(onBytes: (bytes: Uint8Array) => void, onGap?: () => void): () => void {
    return this.output.listen(onBytes, onGap);
  }

  /** Every close of the socket, expected or not. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  start(): this {
    if (!this.started && !this.stopped) {
      this.started = true;
      this.connection.connect();
    }
    return this;
  }

  /** After giving up (or at any time): a fresh attempt with the failure count at zero. */
  reconnect(): void {
    if (!this.stopped) this.connection.reconnect();
  }

  /** Reads status and stats now (after an action), whatever the socket is doing. */
  async refresh(): Promise<void> {
    if (!this.stopped) await Promise.all([this.readStatus(), this.readStats()]);
  }

  /** Deliberate close: stops reconnecting and polling, clears timers, emits close. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.poller.stop();
    this.connection.close();
    this.emitClose();
  }

  private receive(raw: unknown): void {
    const frame = parseFrame(raw);
    if (!frame) return;
    switch (frame.type) {
      case "console":
        this.output.frame(frame.data.logs ?? "");
        return;
      case "status":
        this.figures.statusFrame(frame.data);
        return;
      case "stat":
        this.figures.statFrame(frame.data);
        return;
      case "transfer":
        this.figures.transfer.value = frame.data;
        return;
    }
  }

  /** On open: status and stats once, and the output missed (frames arriving meanwhile wait). */
  private async catchUp(): Promise<void> {
    const console = this.options.channels.console;
    if (console) this.output.beginCatchUp();
    await this.readAll();
    if (console && this.socket.value === "open") this.output.endCatchUp();
  }

  private readAll(): Promise<unknown> {
    return Promise.all([
      this.readStatus(),
      this.readStats(),
      this.options.channels.console ? this.output.readNew() : undefined,
    ]);
  }

  private readStatus(): Promise<void> {
    if (!this.options.channels.status) return Promise.resolve();
    return this.figures.readStatus(() => this.source.status(this.id));
  }

  private readStats(): Promise<void> {
    if (!this.options.channels.stats) return Promise.resolve();
    return this.figures.readStats(() => this.source.stats(this.id));
  }

  private emitClose(): void {
    for (const listener of this.closeListeners) listener();
  }
}
