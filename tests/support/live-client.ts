import WebSocket from "ws";
import type { PanelClient } from "./http-client.ts";

export interface LiveFrame {
  type: string;
  id?: string;
  [key: string]: unknown;
}

export interface LiveSocket {
  frames: LiveFrame[];
  watch(ids: string[]): void;
  sendRaw(text: string): void;
  /** Resolves with the first frame (after those already seen, from `from`) that matches. */
  next(match: (frame: LiveFrame) => boolean, timeoutMs?: number, from?: number): Promise<LiveFrame>;
  close(): void;
  closed: Promise<{ code: number; reason: string }>;
}

/**
 * Opens GET /api/live as the browser would: with the client's cookies (or a bearer token), on the
 * client's panel or, with `baseUrl`, on another panel of the same database (the same session).
 */
export function openLive(
  client: PanelClient,
  opts: { bearer?: string; origin?: string; baseUrl?: string } = {},
): Promise<LiveSocket> {
  const url = `${(opts.baseUrl ?? client.baseUrl).replace(/^http/, "ws")}/api/live`;
  const headers: Record<string, string> = {};
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  else headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  if (opts.origin) headers.origin = opts.origin;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const frames: LiveFrame[] = [];
    const waiters = new Set<() => void>();
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      socket.on("close", (code, reason) => r({ code, reason: reason.toString() })),
    );
    socket.on("message", (data) => {
      frames.push(JSON.parse(data.toString()));
      for (const waiter of waiters) waiter();
    });
    socket.on("unexpected-response", (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    socket.on("error", reject);
    socket.on("open", () =>
      resolve({
        frames,
        closed,
        watch: (ids) => socket.send(JSON.stringify({ type: "watch", ids })),
        sendRaw: (text) => socket.send(text),
        close: () => socket.close(),
        next: (match, timeoutMs = 10_000, from = 0) =>
          new Promise((found, fail) => {
            const check = () => {
              const frame = frames.slice(from).find(match);
              if (!frame) return false;
              waiters.delete(check);
              clearTimeout(timer);
              found(frame);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
            }, timeoutMs);
            if (!check()) waiters.add(check);
          }),
      }),
    );
  });
}
