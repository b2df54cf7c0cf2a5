/**
 * GET /api/servers with 10 000 servers in the database, 100 connections, beside
 * Fastify's hello-world on the same machine in the same run. Reports req/s and
 * p99 for both and their ratio; both servers run in their own process.
 *
 * Run: node --import tsx bench/servers-list.ts [seconds]  (BENCH_PROFILE=<dir> to profile the panel)
 */
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { withPanelDb } from "../tests/support/panel-db.ts";
import { admin, startPanel, stopChild } from "../tests/support/panel-process.ts";

const seconds = Number(process.argv[2] ?? 10);
const servers = 10_000;

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

// BENCH_PROFILE=<dir> writes a CPU profile of the panel there.
const panel = await startPanel({
  nodeArgs: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
});
const hello = await helloWorld();
try {
  await withPanelDb(panel, async (db) => {
    for (let start = 0; start < servers; start += 500) {
      const rows = Array.from({ length: Math.min(500, servers - start) }, (_, i) => ({
        id: (start + i).toString(16).padStart(8, "0"),
        name: `Server ${String(start + i).padStart(5, "0")}`,
        node_id: 0,
        ip: "127.0.0.1",
        port: 25565,
        type: "minecraft-java",
        icon: "",
        created_at: Date.now(),
      }));
      await db.insertInto("servers").values(rows).execute();
    }
  });
  const client = new PanelClient(panel.url);
  await client.login(admin.email, admin.password);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const check = await client.get("/api/servers");
  if (check.body.paging.total !== servers)
    throw new Error(`expected ${servers} servers, got ${check.body.paging.total}`);

  const reference = await load(hello.url);
  const list = await load(`${panel.url}/api/servers`, { cookie });
  console.log(`Fastify hello-world:            ${reference.rps} req/s, p99 ${reference.p99} ms`);
  console.log(`GET /api/servers (10 000 rows): ${list.rps} req/s, p99 ${list.p99} ms`);
  console.log(`ratio: ${(list.rps / reference.rps).toFixed(3)} of hello-world's throughput`);
} finally {
  await hello.stop();
  await panel.stop();
}
