import { signal } from "@preact/signals-react";

// One opened server's console socket and its reconnects (spec §4): connecting → open → closed.
// An unexpected close retries after 5 s; the fifth failure in a row gives up (reconnect() starts
// over); the failure count resets 30 s after a close. What to do meanwhile (poll, resync the
// console) is the owner's business, told through the handlers.

export type SocketState = "connecting" | "open" | "closed";

export const SOCKET_RETRY_MS = 5000;
export const SOCKET_MAX_FAILURES = 5;
export const SOCKET_FAILURE_RESET_MS = 30_000;
/** The close code of a watcher the server cut off for reading too slowly (server/http/socket-send.ts). */
export const CLOSE_TOO_SLOW = 1013;

/** The part of a WebSocket this module uses; the browser's and the `ws` package's both fit. */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(code?: number, reason?: string): void;
}

export interface SocketHandlers {
  opened(): void;
  message(data: unknown): void;
  /** The socket closed by itself (not by close()), with the close code if any. */
  closed(code: number | undefined): void;
  /** The socket went away or could not be had; `wasOpen`: it had been open. Retry follows. */
  lost(wasOpen: boolean): void;
  /** SOCKET_MAX_FAILURES failed attempts in a row: no more automatic reconnects. */
  gaveUp(): void;
}

export class ReconnectingSocket {
  readonly state = signal<SocketState>("connecting");
  /** True after the failure limit: no more automatic reconnects (reconnect() starts over). */
  readonly gaveUp = signal(false);

  private ws: SocketLike | undefined;
  private failures = 0;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private resetTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    private readonly handlers: SocketHandlers,
    private readonly createSocket: (url: string) => SocketLike = (u) =>
      new WebSocket(u) as unknown as SocketLike,
  ) {}

  connect(): void {
    this.state.value = "connecting";
    let ws: SocketLike;
    try {
      ws = this.createSocket(this.url);
    } catch {
      this.lost();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.state.value = "open";
      this.handlers.opened();
    };
    ws.onmessage = (ev) => {
      if (this.ws === ws) this.handlers.message(ev.data);
    };
    ws.onerror = () => {
      // a close event follows
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.handlers.closed((ev as { code?: number } | undefined)?.code);
      this.lost();
    };
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

  /** Deliberate close: no reconnect, no timers, no handler called. */
  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.resetTimer);
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
    this.state.value = "closed";
  }

  private lost(): void {
    const wasOpen = this.state.value === "open";
    this.state.value = "closed";
    this.failures++;
    clearTimeout(this.resetTimer);
    this.resetTimer = setTimeout(() => {
      this.failures = 0;
    }, SOCKET_FAILURE_RESET_MS);
    this.handlers.lost(wasOpen);
    if (this.failures >= SOCKET_MAX_FAILURES) {
      if (!this.gaveUp.value) {
        this.gaveUp.value = true;
        this.handlers.gaveUp();
      }
      return;
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped && !this.ws) this.connect();
    }, SOCKET_RETRY_MS);
  }
}
