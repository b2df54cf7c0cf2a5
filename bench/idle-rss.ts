/**
 * Processes at idle: time from spawn to their first answer and resident
 * memory once idle, in one run, beside a bare Node.js HTTP server (the floor
 * any Node process pays) as the reference:
 * - `outpost serve` with the local node and SQLite, the ahead-of-time build
 *   (dist-server/, what `npm start` runs) and the TypeScript sources through tsx;
 * - `outpost daemon --config FILE` (bin/outpost.mjs) and the self-contained
 *   daemon bundle a remote node's host runs (dist-daemon/outpost-daemon.mjs).
 *
 * Fastify's hello-world is a second reference: the floor of a process that
 * serves HTTP with Fastify, as the daemon and the panel do.
 *
 * The processes are started one after the other (the start-up time is taken
 * alone), then left idle together. RSS is read from /proc: "10 s after start" is
 * the median of samples 9-11 s after the first answer (issue 41's goal: ≤ 64 MiB
 * for `outpost serve`); "settled" the median
 * of the last 10 s of `settleSeconds` (150 s by default): V8 shrinks the heap
 * it grew while starting only after a while at idle (60-120 s here). The
 * figures are medians over `rounds` rounds; the machine may be shared, so
 * compare with the reference measured in the same run.
 *
 * Run: npm run build && node --import tsx bench/idle-rss.ts [rounds] [settleSeconds]
 * IDLE_RSS_BEFORE=DIR adds the same four Outpost cases run from another
 * checkout, built there (e.g. `git worktree add DIR main~3 && cd DIR && npm ci
 * && npm run build`): a before/after comparison in one run.
 * IDLE_RSS_ONLY=daemon (any text) keeps only the Outpost cases whose label
 * holds it, beside the two references: `daemon` measures the nodes alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/free-port.ts";
import { startPanel, stopChild } from "../tests/support/panel-process.ts";

const rounds = Number(process.argv[2] ?? 1);
const settleSeconds = Number(process.argv[3] ?? 150);
const repoRoot = path.resolve(import.meta.dirname, "..");

function rssMiB(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) / 1024;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function samples(pid: number, fromMs: number, toMs: number, since: number): Promise<number> {
  const taken: number[] = [];
  while (performance.now() - since < toMs) {
    if (performance.now() - since >= fromMs) taken.push(rssMiB(pid));
    await new Promise((r) => setTimeout(r, 250));
  }
  // The cases start one after the other: a settle time shorter than their start-ups leaves none.
  if (taken.length === 0)
    throw new Error(`no sample ${fromMs}-${toMs} ms after start: give a longer settle time`);
  return median(taken);
}

interface Measured {
  firstAnswerMs: number;
  afterStart: number;
  settled: number;
}

interface Started {
  pid: number;
  firstAnswerMs: number;
  answeredAt: number;
  stop(): Promise<void>;
}

/** A child that prints `ready` in its output when it answers. */
async function startChild(args: string[], ready: string, cleanup = () => {}, cwd?: string): Promise<Started> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  while (!output.includes(ready)) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`);
    if (performance.now() - started > 30_000) throw new Error(`no answer within 30 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const answeredAt = performance.now();
  return {
    pid: child.pid ?? 0,
    firstAnswerMs: answeredAt - started,
    answeredAt,
    stop: async () => {
      await stopChild(child);
      cleanup();
    },
  };
}

async function bareNode(): Promise<Started> {
  const port = await freePort();
  const script = `require("node:http").createServer((q,s)=>s.end("hi")).listen(${port},"127.0.0.1",()=>console.log("up"))`;
  return startChild(["-e", script], "up");
}

/** Fastify's hello-world with its logger: what the daemon's HTTP server alone costs. */
async function fastifyHello(): Promise<Started> {
  const port = await freePort();
  const script = `const app=require("fastify")({logger:{level:"warn"}});app.get("/",async()=>"hi");app.listen({port:${port},host:"127.0.0.1"}).then(()=>console.log("up"))`;
  return startChild(["-e", script], "up", () => {}, repoRoot);
}

async function panel(fromSource: boolean, checkout = repoRoot): Promise<Started> {
  const started = performance.now();
  const p = await startPanel({ checkout, env: { OUTPOST_FROM_SOURCE: String(fromSource) } });
  const answeredAt = performance.now();
  return { pid: p.pid, firstAnswerMs: answeredAt - started, answeredAt, stop: () => p.stop() };
}

async function daemon(bundle: boolean, checkout = repoRoot): Promise<Started> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-bench-daemon-"));
  const file = path.join(dir, "config.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      nodeId: 1,
      secret: randomBytes(32).toString("hex"),
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: path.join(dir, "data"),
    }),
    { mode: 0o600 },
  );
  const entry = bundle
    ? [path.join(checkout, "dist-daemon/outpost-daemon.mjs")]
    : [path.join(checkout, "bin/outpost.mjs"), "daemon"];
  return startChild([...entry, "--config", file], "Outpost daemon for node", () =>
    fs.rmSync(dir, { recursive: true, force: true }),
  );
}

const only = process.env.IDLE_RSS_ONLY ?? "";
const outpostCases = (checkout: string, label: string): [string, () => Promise<Started>][] =>
  (
    [
      [`\`outpost serve\`, ahead-of-time build${label}`, () => panel(false, checkout)],
      [`\`outpost serve\`, sources through tsx${label}`, () => panel(true, checkout)],
      [`\`outpost daemon\` (bin/outpost.mjs)${label}`, () => daemon(false, checkout)],
      [`daemon bundle (dist-daemon/outpost-daemon.mjs)${label}`, () => daemon(true, checkout)],
    ] as [string, () => Promise<Started>][]
  ).filter(([name]) => name.includes(only));
const before = process.env.IDLE_RSS_BEFORE;
const cases: [string, () => Promise<Started>][] = [
  ["bare Node.js HTTP server (reference)", bareNode],
  ["Fastify hello-world (second reference)", fastifyHello],
  ...(before ? outpostCases(path.resolve(before), ", before") : []),
  ...outpostCases(repoRoot, before ? ", after" : ""),
];
const results = new Map<string, Measured[]>(cases.map(([label]) => [label, []]));
for (let round = 0; round < rounds; round++) {
  const running: [string, Started, number][] = [];
  try {
    for (const [label, start] of cases) {
      const started = await start();
      // The next one starts once this one has had its "10 s after start" samples.
      running.push([label, started, await samples(started.pid, 9000, 11_000, started.answeredAt)]);
    }
    await Promise.all(
      running.map(async ([label, p, afterStart]) => {
        const end = settleSeconds * 1000;
        const settled = await samples(p.pid, end - 10_000, end, p.answeredAt);
        results.get(label)?.push({ firstAnswerMs: p.firstAnswerMs, afterStart, settled });
      }),
    );
  } finally {
    for (const [, p] of running) await p.stop();
  }
}

console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
console.log(`| process | spawn to first answer | RSS 10 s after start | RSS settled (${settleSeconds} s) |`);
console.log("|---|---|---|---|");
for (const [label, measured] of results) {
  const of = (pick: (m: Measured) => number) => median(measured.map(pick));
  const ms = Math.round(of((m) => m.firstAnswerMs));
  console.log(
    `| ${label} | ${ms} ms | ${of((m) => m.afterStart).toFixed(0)} MiB | ${of((m) => m.settled).toFixed(0)} MiB |`,
  );
}
