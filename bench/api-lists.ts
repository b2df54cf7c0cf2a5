/**
 * The panel's big lists under load, beside Fastify's hello-world on the same
 * machine in the same run: `GET /api/servers` (10 000 servers), `GET /api/users`
 * (10 000 users) and `GET /api/nodes` (10 remote nodes and the local one), as
 * the administrator, 100 connections each, on SQLite and on PostgreSQL (a
 * throw-away cluster). Reports req/s and p99 and the ratio to hello-world's
 * req/s, measured right before each database's round. Every process (panel,
 * hello-world, PostgreSQL) is its own; the load generator runs in this one.
 *
 * `GET /api/config` (public) and `GET /api/self` (signed in) come first: the
 * floor of any answer of the panel's request pipeline. `/api/servers` is also
 * measured as a browser asks for it, with `accept-encoding: br, gzip`.
 *
 * Each line also gives the panel's CPU time per answer (user + system, read
 * from /proc): unlike req/s it hardly moves with what else the machine runs.
 *
 * Run: node --import tsx bench/api-lists.ts [seconds] [sqlite|postgres|both]
 *      (BENCH_PROFILE=<dir> writes CPU profiles of the panel there;
 *       BENCH_PATHS=/api/servers,/api/users measures only those;
 *       BENCH_BEFORE=<dir>[,<dir>…] also runs the panel built in other checkouts,
 *       e.g. main's, each measured right before this one on each path: a
 *       before/after comparison under the same load; BENCH_ROUNDS=n repeats every path n times)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { basename } from "node:path";
import autocannon from "autocannon";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { withPanelDb } from "../tests/support/panel-db.ts";
import { admin, type PanelProcess, startPanel, stopChild } from "../tests/support/panel-process.ts";
import { startPostgres } from "../tests/support/postgres-cluster.ts";

const seconds = Number(process.argv[2] ?? 10);
const which = process.argv[3] ?? "both";
const rows = 10_000;
const remoteNodes = 10;
// The lists, after the floor of the panel's request pipeline: a public answer and the smallest signed-in one.
const paths = process.env.BENCH_PATHS?.split(",") ?? [
  "/api/config",
  "/api/self",
  "/api/servers",
  "/api/users",
  "/api/nodes",
];

// Each other checkout is labelled with its folder's name; this one comes last, unlabelled.
const builds: [label: string, checkout: string | undefined][] = [
  ...(process.env.BENCH_BEFORE?.split(",") ?? []).map(
    (dir) => [` [${basename(dir)}]`, dir] as [string, string],
  ),
  ["", undefined],
];
const repeats = Number(process.env.BENCH_ROUNDS ?? 1);

/** A process's user + system CPU time so far, in ms (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function load(url: string, headers: Record<string, string> = {}, pid?: number) {
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const result = await autocannon({ url, connections: 100, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpu = pid ? ((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total : 0;
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, cpu };
}

async function helloWorld(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const script = `const f=require("fastify")();f.get("/",async()=>({hello:"world"}));f.listen({port:${port},host:"127.0.0.1"}).then(()=>console.log("up"))`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

/** 10 000 servers and users, and 10 remote nodes, written behind the running panel's back. */
async function seed(panel: PanelProcess): Promise<void> {
  await withPanelDb(panel, async (db) => {
    const now = Date.now();
    for (let start = 0; start < rows; start += 500) {
      const batch = Array.from({ length: Math.min(500, rows - start) }, (_, i) => start + i);
      await db
        .insertInto("servers")
        .values(
          batch.map((n) => ({
            id: n.toString(16).padStart(8, "0"),
            name: `Server ${String(n).padStart(5, "0")}`,
            node_id: 0,
            ip: "127.0.0.1",
            port: 25565,
            type: "minecraft-java",
            icon: "",
            created_at: now,
          })),
        )
        .execute();
      await db
        .insertInto("users")
        .values(
          batch.map((n) => ({
            username: `user${String(n).padStart(5, "0")}`,
            email: `user${n}@example.com`,
            password_hash: "not-a-hash",
            otp_active: 0,
            otp_last_step: 0,
            created_at: now,
          })),
        )
        .execute();
    }
    // Added behind the running panel's back: it lists them without watching them.
    await db
      .insertInto("nodes")
      .values(
        Array.from({ length: remoteNodes }, (_, i) => ({
          name: `node-${i}`,
          public_host: "127.0.0.1",
          public_port: 1,
          private_host: "127.0.0.1",
          private_port: 1,
          sftp_port: 1,
          secret: "x".repeat(64),
          created_at: now,
        })),
      )
      .execute();
  });
}

/** Signs the administrator in and checks the lists are complete; answers the session's Cookie header. */
async function signIn(panel: PanelProcess): Promise<string> {
  const client = new PanelClient(panel.url);
  await client.login(admin.email, admin.password);
  const servers = await client.get("/api/servers");
  const users = await client.get("/api/users");
  const nodes = await client.get("/api/nodes");
  if (servers.body.paging.total !== rows) throw new Error(`servers: total ${servers.body.paging.total}`);
  if (users.body.paging.total !== rows + 1) throw new Error(`users: total ${users.body.paging.total}`);
  if (nodes.body.length !== remoteNodes + 1) throw new Error(`nodes: ${nodes.body.length}`);
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function round(database: "sqlite" | "postgres", postgresUrl?: string) {
  const started: { label: string; panel: PanelProcess; cookie: string }[] = [];
  const hello = await helloWorld();
  try {
    for (const [label, checkout] of builds) {
      const panel = await startPanel({
        postgresUrl,
        checkout,
        nodeArgs: process.env.BENCH_PROFILE
          ? ["--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
          : [],
      });
      started.push({ label, panel, cookie: "" });
      await seed(panel);
      started[started.length - 1].cookie = await signIn(panel);
    }

    const results = new Map<string, { ratio: number; p99: number; cpu: number }[]>();
    for (let repeat = 0; repeat < repeats; repeat++) {
      const reference = await load(hello.url, {}, hello.pid);
      console.log(
        `[${database}] Fastify hello-world: ${reference.rps} req/s, p99 ${reference.p99} ms, CPU ${reference.cpu.toFixed(1)} µs per answer`,
      );
      const measure = async (name: string, url: string, headers: Record<string, string>, pid: number) => {
        const r = await load(url, headers, pid);
        const ratio = r.rps / reference.rps;
        console.log(
          `[${database}] GET ${name}: ${r.rps} req/s, p99 ${r.p99} ms, ratio ${ratio.toFixed(3)}, CPU ${r.cpu.toFixed(1)} µs per answer`,
        );
        results.set(name, [...(results.get(name) ?? []), { ratio, p99: r.p99, cpu: r.cpu }]);
      };
      // Each repeat starts with another build, so none is always measured first or last.
      const order = [...started.slice(repeat % started.length), ...started.slice(0, repeat % started.length)];
      for (const path of paths) {
        for (const { label, panel, cookie } of order)
          await measure(`${path}${label}`, `${panel.url}${path}`, { cookie }, panel.pid);
        if (path !== "/api/servers") continue;
        // As a browser asks: the answer goes out compressed.
        for (const { label, panel, cookie } of order) {
          const headers = { cookie, "accept-encoding": "br, gzip" };
          await measure(`${path}${label} (br, gzip)`, `${panel.url}${path}`, headers, panel.pid);
        }
      }
    }
    if (repeats > 1) {
      const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
      for (const [name, runs] of results) {
        console.log(
          `[${database}] median of ${runs.length}, GET ${name}: ratio ${median(runs.map((r) => r.ratio)).toFixed(3)}, p99 ${median(runs.map((r) => r.p99))} ms, CPU ${median(runs.map((r) => r.cpu)).toFixed(1)} µs per answer`,
        );
      }
    }
  } finally {
    await hello.stop();
    for (const { panel } of started) await panel.stop();
  }
}

if (which !== "postgres") await round("sqlite");
if (which !== "sqlite") {
  const cluster = await startPostgres();
  try {
    await round("postgres", cluster.url);
  } finally {
    cluster.stop();
  }
}
