/**
 * Console fan-out: a server printing 10 000 lines/s, watched by 100 WebSocket
 * clients of the panel, plus one watcher that stops reading. Reports lines
 * delivered to each client against lines printed, the delay from print to
 * arrival, the panel's memory sampled through the run, and what became of the
 * stalled watcher.
 *
 * The reference, in the same run and on the same machine: the same printer
 * piped into a bare `ws` server in its own process that sends every chunk it
 * reads, as the same JSON frame, to the same 100 clients (no database, no
 * auth, no batching): the floor of any fan-out in Node on this machine.
 *
 * Run: node --import tsx bench/console-fanout.ts [seconds] [rounds]
 *      (BENCH_PROFILE=<dir> to profile the panel)
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import WebSocket from "ws";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel, stopChild } from "../tests/support/panel-process.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 1);
const clients = 100;
const linesPerSecond = 10_000;
const repoRoot = path.resolve(import.meta.dirname, "..");

const rssMiB = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

// 100 lines every 10 ms, each stamped with the time it was printed.
const printer = `let i=0;const t=setInterval(()=>{let s="";for(let k=0;k<${linesPerSecond / 100};k++)s+=Date.now()+" line "+(i++)+"\\n";process.stdout.write(s)},10);setTimeout(()=>{clearInterval(t)},${seconds * 1000})`;

// The reference: a bare ws server that starts the printer on GET /start and sends each chunk to all.
const reference = `
const { WebSocketServer } = require("ws");
const http = require("node:http");
const { spawn } = require("node:child_process");
const server = http.createServer((req, res) => {
  res.end();
  if (req.url !== "/start") return;
  const child = spawn(process.execPath, ["-e", process.env.PRINTER], { stdio: ["ignore", "pipe", "inherit"] });
  child.stdout.on("data", (chunk) => {
    const frame = Buffer.from(JSON.stringify({ type: "console", data: { logs: chunk.toString("base64") } }));
    for (const c of wss.clients) c.send(frame, { binary: false });
  });
});
const wss = new WebSocketServer({ server });
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
`;

/** The first and last lines with an index (daemon messages may stand before or after). */
function edgeLines(text: string): string[] {
  const lines = [];
  let from = 0;
  for (let k = 0; k < 3 && from <= text.length; k++) {
    const to = text.indexOf("\n", from);
    lines.push(text.slice(from, to < 0 ? undefined : to));
    if (to < 0) return lines;
    from = to + 1;
  }
  let to = text.length;
  const tail = [];
  for (let k = 0; k < 3 && to > from; k++) {
    const start = text.lastIndexOf("\n", to - 1) + 1;
    tail.unshift(text.slice(Math.max(start, from), to));
    to = start - 1;
  }
  return [...lines, ...tail];
}

const indexOf = (line: string) => (/^\d{13} line (\d+)$/.exec(line) ? Number(line.split(" ")[2]) : -1);

function open(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once("open", () => resolve(socket));
    socket.once("unexpected-response", (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    socket.once("error", reject);
  });
}

/**
 * 100 watchers on one URL. They share this process, so only watcher 0 reads
 * every line (for the delays); the others read a frame's first and last
 * lines, enough to count, as the output is one ordered stream.
 */
async function watch(url: string, headers: Record<string, string>) {
  const delays: number[] = [];
  let highest = -1;
  const counts = new Array(clients).fill(0);
  // Lines a client never got: the first line of a frame must follow the last of the one before.
  const gaps = new Array(clients).fill(0);
  const closes: number[] = [];
  const sockets = await Promise.all(Array.from({ length: clients }, () => open(url, headers)));
  sockets.forEach((socket, n) => {
    let partial = "";
    let next = 0;
    socket.on("close", (code) => closes.push(code));
    socket.on("message", (raw: Buffer) => {
      const now = Date.now();
      const frame = JSON.parse(raw.toString());
      if (frame.type !== "console") return;
      const text = partial + Buffer.from(frame.data.logs, "base64").toString();
      const end = text.lastIndexOf("\n");
      partial = text.slice(end + 1);
      if (end < 0) return;
      const lines = n === 0 ? text.slice(0, end).split("\n") : edgeLines(text.slice(0, end));
      let first = -1;
      let last = -1;
      for (const line of lines) {
        const i = indexOf(line);
        if (i < 0) continue;
        if (first < 0) first = i;
        last = i;
        if (n === 0) {
          delays.push(now - Number(line.split(" ")[0]));
          highest = Math.max(highest, i);
        }
      }
      if (first < 0) return;
      if (first !== next) gaps[n] += first - next;
      counts[n] += last - first + 1;
      next = last + 1;
    });
  });
  return {
    close: () => {
      for (const socket of sockets) socket.close();
    },
    report(label: string) {
      const produced = highest + 1;
      const perClient = counts.reduce((a, b) => a + b, 0) / clients;
      delays.sort((a, b) => a - b);
      const p = (q: number) => delays[Math.min(delays.length - 1, Math.floor(delays.length * q))];
      const missing = gaps.reduce((a, b) => a + b, 0);
      const complete = counts.filter((c) => c === produced).length;
      console.log(
        `${label}: printed ${produced} lines (${Math.round(produced / seconds)}/s, aimed at ${linesPerSecond}); ` +
          `per client ${Math.round(perClient)} (${((perClient / produced) * 100).toFixed(1)} %); ` +
          `clients with every line ${complete}/${clients}, lines skipped ${missing}, closed early ${closes.length}; ` +
          `delay p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${delays.at(-1)} ms`,
      );
      return { p99: p(0.99), complete };
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, seconds * 1000 + 2000));

async function referenceRound() {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["-e", reference], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), PRINTER: printer },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once("data", () => resolve());
      child.once("exit", () => reject(new Error("the reference server did not start")));
    });
    const watchers = await watch(`ws://127.0.0.1:${port}/`, {});
    await fetch(`http://127.0.0.1:${port}/start`);
    await settle();
    watchers.close();
    return watchers.report("bare ws server (reference)");
  } finally {
    await stopChild(child);
  }
}

async function panelRound() {
  // 101 sockets of one session and user: above the default caps, which this bench is not testing.
  const panel = await startPanel({
    env: { OUTPOST_MAX_CONNECTIONS_PER_SESSION: "200", OUTPOST_MAX_CONNECTIONS_PER_USER: "200" },
    nodeArgs: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  });
  try {
    const api = new PanelClient(panel.url);
    await api.login(admin.email, admin.password);
    const definition = echoDefinition({
      run: { command: `${process.execPath} -e '${printer}'`, stop: "stop" },
      requirements: {},
    });
    const created = await api.put("/api/servers/be0c0a50", { ...definition, node: 0 });
    if (created.status !== 200) throw new Error(created.text);
    const url = `${panel.url.replace(/^http/, "ws")}/api/servers/be0c0a50/socket`;
    const headers = { cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
    const watchers = await watch(url, headers);
    // One more watcher that never reads: the panel must drop it, not buffer for it.
    const stalled = await open(url, headers);
    (stalled as unknown as { _socket: Socket })._socket.pause();
    let stalledClose: { code: number; reason: string } | undefined;
    stalled.on("close", (code, reason) => {
      stalledClose = { code, reason: reason.toString() };
    });
    const rss: number[] = [rssMiB(panel.pid)];
    const sampler = setInterval(() => rss.push(rssMiB(panel.pid)), 500);
    await api.post("/api/servers/be0c0a50/start?wait");
    await settle();
    clearInterval(sampler);
    watchers.close();
    const result = watchers.report("panel, 100 watchers");
    const third = Math.floor(rss.length / 3);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `panel RSS: ${rss[0]} MiB before; median of each third of the run ${median(rss.slice(0, third))}, ` +
        `${median(rss.slice(third, 2 * third))}, ${median(rss.slice(2 * third))} MiB; max ${Math.max(...rss)} MiB (${rss.length} samples)`,
    );
    // Resumed: what the panel (and the kernel) still held for it arrives, then its close if any.
    let backlog = 0;
    stalled.on("message", (data: Buffer) => {
      backlog += data.length;
    });
    (stalled as unknown as { _socket: Socket })._socket.resume();
    await new Promise((r) => setTimeout(r, 2000));
    const held = `${(backlog / 1024 / 1024).toFixed(1)} MiB held for it`;
    console.log(
      `stalled watcher: ${stalledClose ? `closed by the panel, ${stalledClose.code} "${stalledClose.reason}"` : "not dropped (under the bound)"}, ${held}`,
    );
    stalled.terminate();
    return result;
  } finally {
    await panel.stop();
  }
}

for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round} of ${rounds}, ${clients} watchers, ${seconds} s`);
  const ref = await referenceRound();
  const own = await panelRound();
  console.log(`p99 delay, panel / reference: ${(own.p99 / ref.p99).toFixed(2)}`);
}
