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
 * Run: node --import tsx bench/api-lists.ts [seconds] [sqlite|postgres|both]
 *      (BENCH_PROFILE=<dir> writes CPU profiles of the panel there;
 *       BENCH_PATHS=/api/servers,/api/users measures only those)
 */
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { withPanelDb } from "../tests/support/panel-db.ts";
import { admin, startPanel, stopChild } from "../tests/support/panel-process.ts";
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

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 100, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p99: result.latency.p99 };
}

async function helloWorld(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const script = `const f=require("fastify")();f.get("/",async()=>({hello:"world"}));f.listen({port:${port},host:"127.0.0.1"}).then(()=>console.log("up"))`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  return { url: `http://127.0.0.1:${port}/`, stop: () => stopChild(child) };
}

async function round(database: "sqlite" | "postgres", postgresUrl?: string) {
  const panel = await startPanel({
    postgresUrl,
    nodeArgs: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  });
  const hello = await helloWorld();
  try {
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
    const client = new PanelClient(panel.url);
    await client.login(admin.email, admin.password);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const servers = await client.get("/api/servers");
    const users = await client.get("/api/users");
    const nodes = await client.get("/api/nodes");
    if (servers.body.paging.total !== rows) throw new Error(`servers: total ${servers.body.paging.total}`);
    if (users.body.paging.total !== rows + 1) throw new Error(`users: total ${users.body.paging.total}`);
    if (nodes.body.length !== remoteNodes + 1) throw new Error(`nodes: ${nodes.body.length}`);

    const reference = await load(hello.url);
    console.log(`[${database}] Fastify hello-world: ${reference.rps} req/s, p99 ${reference.p99} ms`);
    for (const path of paths) {
      const r = await load(`${panel.url}${path}`, { cookie });
      const ratio = (r.rps / reference.rps).toFixed(3);
      console.log(`[${database}] GET ${path}: ${r.rps} req/s, p99 ${r.p99} ms, ratio ${ratio}`);
      if (path !== "/api/servers") continue;
      // As a browser asks: the answer goes out compressed.
      const br = await load(`${panel.url}${path}`, { cookie, "accept-encoding": "br, gzip" });
      const brRatio = (br.rps / reference.rps).toFixed(3);
      console.log(
        `[${database}] GET ${path} (br, gzip): ${br.rps} req/s, p99 ${br.p99} ms, ratio ${brRatio}`,
      );
    }
  } finally {
    await hello.stop();
    await panel.stop();
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
