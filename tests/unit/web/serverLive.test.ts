import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { get, setErrorHandler } from "../../../src/api/client";
import type { ConsoleAnswer, ServerStats, ServerStatusAnswer } from "../../../src/api/servers";
import { overlapLength } from "../../../src/state/live/consoleJoin";
import { POLL_MS } from "../../../src/state/live/poller";
import {
  CLOSE_TOO_SLOW,
  SOCKET_FAILURE_RESET_MS,
  SOCKET_RETRY_MS,
  type SocketLike,
} from "../../../src/state/live/reconnectingSocket";
import { type LiveSource, ServerLive } from "../../../src/state/serverLive";
import { serverStatus, statusOf } from "../../../src/state/serverStatus";

// The live-status state machine (spec §4) against a real WebSocket + HTTP server on loopback:
// real sockets, real HTTP reads through the app's client; only the clock is fake.

const ID = "abcd0123";
let http: Server;
let wss: WebSocketServer;
let origin = "";

/** What the test server does and saw. */
const server = {
  accept: true,
  status: { running: false, installing: false } as ServerStatusAnswer,
  stats: { cpu: 0, memory: 0 } as ServerStats,
  chunks: [] as { at: number; text: string }[],
  /** While set, GET …/console waits for it. */
  consoleGate: undefined as Promise<void> | undefined,
  upgrades: 0,
  requests: [] as string[],
  peer: undefined as WebSocket | undefined,
};

const nowMicros = () => Date.now() * 1000;

function record(text: string): void {
  server.chunks.push({ at: nowMicros(), text });
}

/** Output the process wrote: into the ring and, when connected, onto the socket. */
function print(text: string): void {
  record(text);
  server.peer?.send(
    JSON.stringify({ type: "console", data: { epoch: 0, logs: Buffer.from(text).toString("base64") } }),
  );
}

function push(frame: unknown): void {
  server.peer?.send(JSON.stringify(frame));
}

beforeAll(async () => {
  http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    server.requests.push(`${req.method} ${url.pathname}${url.search}`);
    const json = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const path = url.pathname.replace(`/api/servers/${ID}/`, "");
    if (path === "status") return json(server.status);
    if (path === "stats") return json(server.stats);
    if (path === "console") {
      if (server.consoleGate) await server.consoleGate;
      const since = Number(url.searchParams.get("time") ?? 0);
      const logs = server.chunks
        .filter((c) => c.at > since)
        .map((c) => c.text)
        .join("");
      return json({ epoch: nowMicros(), logs: Buffer.from(logs).toString("base64") } satisfies ConsoleAnswer);
    }
    res.writeHead(404).end();
  });
  wss = new WebSocketServer({
    server: http,
    path: `/api/servers/${ID}/socket`,
    verifyClient: (_info, done) => {
      server.upgrades++;
      done(server.accept, 503);
    },
  });
  wss.on("connection", (ws) => {
    server.peer = ws;
    ws.on("close", () => {
      if (server.peer === ws) server.peer = undefined;
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  setErrorHandler(() => {});
});

afterAll(async () => {
  await new Promise((r) => wss.close(r));
  await new Promise((r) => http.close(r));
});

let live: ServerLive | undefined;
let output = "";
let failures = 0;
let closes = 0;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  Object.assign(server, {
    accept: true,
    status: { running: false, installing: false },
    stats: { cpu: 0, memory: 0 },
    chunks: [],
    consoleGate: undefined,
    upgrades: 0,
    requests: [],
  });
  output = "";
  failures = 0;
  closes = 0;
  serverStatus(ID).value = "unknown";
});

afterEach(() => {
  live?.close();
  live = undefined;
  server.peer?.terminate();
  vi.useRealTimers();
});

/** Real HTTP through the app's client, to the test server's origin. */
const source: LiveSource = {
  status: (id) => get<ServerStatusAnswer>(`${origin}/api/servers/${id}/status`, { exempt: true }),
  stats: (id) => get<ServerStats>(`${origin}/api/servers/${id}/stats`, { exempt: true }),
  console: (id, time) =>
    get<ConsoleAnswer>(`${origin}/api/servers/${id}/console`, { exempt: true, query: { time } }),
};

function open(channels = { console: true, status: true, stats: true }): ServerLive {
  const decoder = new TextDecoder();
  live = new ServerLive(ID, {
    channels,
    url: `${origin.replace("http", "ws")}/api/servers/${ID}/socket`,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    source,
    onFailure: () => failures++,
  });
  live.onConsole(
    (bytes) => {
      output += decoder.decode(bytes, { stream: true });
    },
    () => {
      output += "[gap]";
    },
  );
  live.onClose(() => closes++);
  return live.start();
}

/** Lets real I/O happen (sockets, HTTP) without moving the fake clock. */
async function until(what: string, check: () => boolean, ms = 3000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Lets pending socket and HTTP work finish (real I/O; the fake clock stands still). */
async function settle(): Promise<void> {
  const end = performance.now() + 30;
  while (performance.now() < end) await new Promise((r) => setImmediate(r));
}

/** Moves the fake clock in steps of at most 1 s, letting the I/O each step started settle. */
async function advance(ms: number): Promise<void> {
  let left = ms;
  do {
    const step = Math.min(left, 1000);
    await vi.advanceTimersByTimeAsync(step);
    await settle();
    left -= step;
  } while (left > 0);
}

const consoleReads = () => server.requests.filter((r) => r.includes("/console")).length;

/** Waits until no console read has arrived for 300 ms of real time (the fake clock stands still). */
async function readsQuiet(): Promise<number> {
  let seen = consoleReads();
  let since = performance.now();
  while (performance.now() - since < 300) {
    await new Promise((r) => setImmediate(r));
    if (consoleReads() !== seen) {
      seen = consoleReads();
      since = performance.now();
    }
  }
  return seen;
}

describe("joining a resync read onto the output shown", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it("finds the longest overlap that starts at a line start", () => {
    expect(overlapLength(bytes("a\nb\nc\n"), bytes("b\nc\nd\n"))).toBe(4);
    expect(overlapLength(bytes("a\nb\nc\n"), bytes("a\nb\nc\n"))).toBe(6);
    expect(overlapLength(bytes("tick\ntick\n"), bytes("tick\ntick\ntick\n"))).toBe(10);
    // "c\n" matches only from mid-line ("abc\n"): chance, not the same output
    expect(overlapLength(bytes("x\nabc\n"), bytes("c\nnew\n"))).toBe(0);
    expect(overlapLength(bytes("a\n"), bytes("b\n"))).toBe(0);
    expect(overlapLength(bytes(""), bytes("b\n"))).toBe(0);
  });
});

describe("server status (spec §4)", () => {
  it("is unknown before an answer, then installing, online or offline", () => {
    expect(statusOf(undefined)).toBe("unknown");
    expect(statusOf({ running: true, installing: true })).toBe("installing");
    expect(statusOf({ running: true, installing: false })).toBe("online");
    expect(statusOf({ running: false, installing: false })).toBe("offline");
    // An egg's server runs before its done line appears: starting, then online.
    expect(statusOf({ running: true, installing: false, starting: true })).toBe("starting");
    expect(statusOf({ running: false, installing: false, starting: true })).toBe("offline");
    // /api/live says so when the server's node cannot be reached: not a spinner that never ends.
    expect(statusOf({ unreachable: true })).toBe("unreachable");
  });
});

/** Open, the first read done, and "one" shown from the socket (the clock moved past it). */
async function openWithOneLine(): Promise<ServerLive> {
  const l = open();
  await until("open", () => l.socket.value === "open");
  await until("first read", () => consoleReads() === 1);
  await advance(1);
  print("one\n");
  await until("one", () => output === "one\n");
  await advance(1);
  return l;
}

describe("live socket (spec §4)", () => {
  it("opens, reads status, stats and the backlog, then follows the frames", async () => {
    record("backlog 1\n");
    server.status = { running: true, installing: false };
    server.stats = { cpu: 12.5, memory: 1024 };
    const l = open();
    expect(l.socket.value).toBe("connecting");
    expect(l.status.value).toBe("unknown");
    await until("open", () => l.socket.value === "open");
    await until("backlog", () => output === "backlog 1\n");
    expect(l.status.value).toBe("online");
    expect(l.stats.value).toEqual({ cpu: 12.5, memory: 1024 });
    expect(serverStatus(ID).value).toBe("online");

    print("live 2\n");
    await until("frame", () => output === "backlog 1\nlive 2\n");
    push({ type: "status", data: { running: false, installing: false } });
    await until("status frame", () => l.status.value === "offline");
    push({ type: "stat", data: { cpu: 3, memory: 2048 } });
    await until("stat frame", () => l.stats.value?.memory === 2048);
    expect(server.upgrades).toBe(1);
  });

  it("holds frames that arrive during the catch-up read, so output stays in order and is not repeated", async () => {
    record("before\n");
    let release = () => {};
    server.consoleGate = new Promise<void>((r) => {
      release = r;
    });
    const l = open();
    await until("open", () => l.socket.value === "open");
    await until("catch-up read", () => consoleReads() === 1);
    // Printed while the read is on its way: it comes by socket and in the read's answer.
    print("during\n");
    // A frame the answer will not hold (printed after the server read its buffer).
    push({ type: "console", data: { epoch: 0, logs: Buffer.from("after\n").toString("base64") } });
    await settle();
    expect(output).toBe("");
    release();
    server.consoleGate = undefined;
    await until("all", () => output.length >= "before\nduring\nafter\n".length);
    await settle();
    expect(output).toBe("before\nduring\nafter\n");
  });

  it("after an unexpected close polls every 5 s and reconnects after 5 s without losing or repeating output", async () => {
    const l = await openWithOneLine();

    server.accept = false;
    server.peer?.terminate();
    await until("closed", () => l.socket.value === "closed");
    expect(closes).toBe(1);
    // The first poll runs at once.
    await until("first poll", () => consoleReads() === 2);
    await settle();
    expect(output).toBe("one\n");
    await advance(1);
    print("two, while down\n");
    await advance(POLL_MS - 1);
    await until("second poll", () => output === "one\ntwo, while down\n");
    expect(consoleReads()).toBe(3);
    expect(server.requests.filter((r) => r.endsWith("/status")).length).toBe(3);
    // The retry at 5 s was refused: one more attempt, still closed, still polling.
    expect(server.upgrades).toBe(2);
    expect(l.socket.value).toBe("closed");
    await advance(POLL_MS);
    await until("third poll", () => consoleReads() === 4);

    server.accept = true;
    // (the test server stamps output in fake-clock µs: let the clock move past the last read)
    await advance(1);
    print("three\n");
    await advance(SOCKET_RETRY_MS - 1);
    await until("reopen", () => l.socket.value === "open");
    await until("three", () => output === "one\ntwo, while down\nthree\n");
    // The read made on reopening may still be on its way on a loaded machine.
    const readsWhenOpen = await readsQuiet();
    await advance(POLL_MS * 3);
    // Open again: no polling.
    expect(consoleReads()).toBe(readsWhenOpen);
    print("four\n");
    await until("four", () => output.endsWith("three\nfour\n"));
    expect(output).toBe("one\ntwo, while down\nthree\nfour\n");
    expect(failures).toBe(0);
  });

  it("cut off as too slow (1013): resyncs from the ring without repeats, and marks a gap the ring no longer holds", async () => {
    const l = await openWithOneLine();

    // The server dropped the stream (this line never went out) but its ring still holds it.
    record("two, dropped\n");
    server.peer?.close(CLOSE_TOO_SLOW, "too slow");
    await until("closed", () => l.socket.value === "closed");
    await until("resync", () => output === "one\ntwo, dropped\n");
    await advance(SOCKET_RETRY_MS);
    await until("reopen", () => l.socket.value === "open");
    await settle();
    await advance(1);
    print("three\n");
    await until("three", () => output.endsWith("three\n"));
    await advance(1);

    // Dropped again, and the ring moved on past everything shown: the gap is marked where it is.
    record("four, lost\n");
    server.chunks = server.chunks.filter((c) => c.text !== "four, lost\n" && c.text !== "three\n");
    await advance(1);
    record("five\n");
    server.peer?.close(CLOSE_TOO_SLOW, "too slow");
    await until("second resync", () => output.endsWith("five\n"));
    await settle();
    expect(output).toBe("one\ntwo, dropped\nthree\n[gap]five\n");
  });

  it("an ordinary close resyncs without a gap mark even when the ring moved on", async () => {
    const l = await openWithOneLine();
    server.chunks = [];
    record("two\n");
    server.peer?.terminate();
    await until("closed", () => l.socket.value === "closed");
    await until("poll", () => output === "one\ntwo\n");
  });

  it("raises the error once after 5 failed attempts, stops reconnecting and keeps polling", async () => {
    server.accept = false;
    const l = open();
    await until("first failure", () => l.socket.value === "closed");
    expect(server.upgrades).toBe(1);
    for (let attempt = 2; attempt <= 5; attempt++) {
      await advance(SOCKET_RETRY_MS);
      await until(`attempt ${attempt}`, () => server.upgrades === attempt && l.socket.value === "closed");
    }
    await until("error", () => failures === 1);
    expect(l.gaveUp.value).toBe(true);
    const polls = consoleReads();
    await advance(SOCKET_FAILURE_RESET_MS * 2);
    expect(server.upgrades).toBe(5);
    expect(failures).toBe(1);
    // one poll per 5 s (a slow machine may let one slip to the next step)
    expect(consoleReads()).toBeGreaterThanOrEqual(polls + (SOCKET_FAILURE_RESET_MS * 2) / POLL_MS - 2);

    // A manual reconnect starts over.
    server.accept = true;
    l.reconnect();
    await until("open", () => l.socket.value === "open");
    expect(l.gaveUp.value).toBe(false);
  });

  it("resets the failure count 30 s after a close", async () => {
    server.accept = false;
    const l = open();
    await until("first failure", () => l.socket.value === "closed");
    for (let attempt = 2; attempt <= 4; attempt++) {
      await advance(SOCKET_RETRY_MS);
      await until(`attempt ${attempt}`, () => server.upgrades === attempt && l.socket.value === "closed");
    }
    // Four failures; the fifth attempt succeeds.
    server.accept = true;
    await advance(SOCKET_RETRY_MS);
    await until("open", () => l.socket.value === "open");
    // Open for longer than 30 s since the last close: the count went back to 0.
    await advance(SOCKET_FAILURE_RESET_MS);
    server.accept = false;
    server.peer?.terminate();
    await until("closed", () => l.socket.value === "closed");
    await advance(0);
    expect(failures).toBe(0);
    for (let attempt = 6; attempt <= 8; attempt++) {
      await advance(SOCKET_RETRY_MS);
      await until(`attempt ${attempt}`, () => server.upgrades === attempt && l.socket.value === "closed");
    }
    expect(failures).toBe(0);
    await advance(SOCKET_RETRY_MS);
    await until("fifth failure since the reset", () => failures === 1);
  });

  it("counts a close within 30 s of the previous one", async () => {
    server.accept = false;
    const l = open();
    await until("first failure", () => l.socket.value === "closed");
    for (let attempt = 2; attempt <= 4; attempt++) {
      await advance(SOCKET_RETRY_MS);
      await until(`attempt ${attempt}`, () => server.upgrades === attempt && l.socket.value === "closed");
    }
    server.accept = true;
    await advance(SOCKET_RETRY_MS);
    await until("open", () => l.socket.value === "open");
    await advance(SOCKET_RETRY_MS);
    server.peer?.terminate();
    await until("error", () => failures === 1);
  });

  it("a deliberate close emits close, stops reconnecting, polling and every timer", async () => {
    const l = open();
    await until("open", () => l.socket.value === "open");
    await until("read", () => consoleReads() === 1);
    l.close();
    expect(l.socket.value).toBe("closed");
    expect(closes).toBe(1);
    await until("server saw the close", () => server.peer === undefined);
    const requests = server.requests.length;
    await advance(SOCKET_FAILURE_RESET_MS * 2);
    expect(server.upgrades).toBe(1);
    // (the fake clock also runs the HTTP client's keep-alive timers, so timers are judged by
    // their effects: nothing is asked for any more)
    expect(server.requests.length).toBe(requests);
    expect(failures).toBe(0);
  });

  it("a deliberate close while polling clears the poll and retry timers", async () => {
    server.accept = false;
    const l = open();
    await until("closed", () => l.socket.value === "closed");
    await until("poll", () => consoleReads() >= 1);
    await settle();
    l.close();
    expect(closes).toBe(2);
    const requests = server.requests.length;
    await advance(SOCKET_FAILURE_RESET_MS * 2);
    expect(server.requests.length).toBe(requests);
    expect(server.upgrades).toBe(1);
    expect(failures).toBe(0);
  });

  it("polls only what the user may read", async () => {
    server.accept = false;
    const l = open({ console: false, status: true, stats: false });
    await until("closed", () => l.socket.value === "closed");
    await advance(POLL_MS);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.endsWith("/status"))).toBe(true);
  });
});
