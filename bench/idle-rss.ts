/**
 * Processes at idle: time from spawn to their first answer and resident
 * memory once idle, in one run, beside a bare Node.js HTTP server (the floor
 * any Node process pays) as the reference:
 * - `outpost serve` with the local node and SQLite, the ahead-of-time build
 *   (dist-server/, what `npm start` runs) and the TypeScript sources through tsx;
 * - `outpost daemon --config FILE` (bin/outpost.mjs) and the self-contained
 *   daemon bundle a remote node's host runs (dist-daemon/outpost-daemon.mjs).
 *
 * RSS is read from /proc every 250 ms from 3 s to 8 s after the first answer;
 * the table gives the median of those samples, and the median over `rounds`
 * interleaved rounds (the machine may be shared: the medians and the
 * reference in the same run are what to compare).
 *
 * Run: npm run build && node --import tsx bench/idle-rss.ts [rounds]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/free-port.ts";
import { startPanel, stopChild } from "../tests/support/panel-process.ts";

const rounds = Number(process.argv[2] ?? 3);
const repoRoot = path.resolve(import.meta.dirname, "..");

function rssMiB(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) / 1024;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function idleRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 3000));
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    samples.push(rssMiB(pid));
    await new Promise((r) => setTimeout(r, 250));
  }
  return median(samples);
}

interface Measured {
  firstAnswerMs: number;
  rss: number;
}

/** A child that prints `ready` in its output when it answers; stopped after measuring. */
async function measureChild(args: string[], ready: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  try {
    while (!output.includes(ready)) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - started > 30_000) throw new Error(`no answer within 30 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const firstAnswerMs = performance.now() - started;
    return { firstAnswerMs, rss: await idleRss(child.pid ?? 0) };
  } finally {
    await stopChild(child);
  }
}

async function bareNode(): Promise<Measured> {
  const port = await freePort();
  const script = `require("node:http").createServer((q,s)=>s.end("hi")).listen(${port},"127.0.0.1",()=>console.log("up"))`;
  return measureChild(["-e", script], "up");
}

async function panel(fromSource: boolean): Promise<Measured> {
  const started = performance.now();
  const p = await startPanel({ env: { OUTPOST_FROM_SOURCE: String(fromSource) } });
  const firstAnswerMs = performance.now() - started;
  try {
    return { firstAnswerMs, rss: await idleRss(p.pid) };
  } finally {
    await p.stop();
  }
}

async function daemon(bundle: boolean): Promise<Measured> {
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
    ? [path.join(repoRoot, "dist-daemon/outpost-daemon.mjs")]
    : [path.join(repoRoot, "bin/outpost.mjs"), "daemon"];
  try {
    return await measureChild([...entry, "--config", file], "Outpost daemon for node");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const cases: [string, () => Promise<Measured>][] = [
  ["bare Node.js HTTP server (reference)", bareNode],
  ["`outpost serve`, ahead-of-time build", () => panel(false)],
  ["`outpost serve`, sources through tsx", () => panel(true)],
  ["`outpost daemon` (bin/outpost.mjs)", () => daemon(false)],
  ["daemon bundle (dist-daemon/outpost-daemon.mjs)", () => daemon(true)],
];
const results = new Map<string, Measured[]>(cases.map(([label]) => [label, []]));
for (let round = 0; round < rounds; round++)
  for (const [label, run] of cases) results.get(label)?.push(await run());

console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
console.log(`| process | spawn to first answer | idle RSS (median of ${rounds}) |\n|---|---|---|`);
for (const [label, measured] of results) {
  const ms = Math.round(median(measured.map((m) => m.firstAnswerMs)));
  const rss = median(measured.map((m) => m.rss)).toFixed(0);
  const all = measured.map((m) => m.rss.toFixed(0)).join(", ");
  console.log(`| ${label} | ${ms} ms | ${rss} MiB (${all}) |`);
}
