/**
 * Requests per second through HAProxy (deploy/haproxy.cfg, as the README's
 * "Scale out" runs it) with 1, 2 and 3 panels on one PostgreSQL database (a
 * throw-away cluster), in one run, as ratios to 1 panel; and one panel asked
 * directly, to show what the balancer itself costs.
 *
 * Each round starts HAProxy with the panels not in it pointed at a closed
 * port, and waits until its checks have marked them down. The load is
 * `GET /api/self` as a signed-in user (the smallest signed-in answer: session,
 * principal, serialisation), 100 connections from this process (autocannon).
 * Every process (panels, HAProxy, PostgreSQL) is its own. Each round also gives
 * the CPU time the panels spent per answer, all together (from /proc): it
 * hardly moves with the machine's load, and stays flat when adding a panel
 * adds no work per request. On a machine with
 * fewer cores than panels + balancer + load generator, the ratios say more
 * about the cores than about the panels: the load average is printed.
 *
 * Run: node --import tsx bench/scale-out.ts [seconds]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, type PanelProcess, startPanel, stopChild } from "../tests/support/panel-process.ts";
import { startPostgres } from "../tests/support/postgres-cluster.ts";

const seconds = Number(process.argv[2] ?? 10);
const repoRoot = path.resolve(import.meta.dirname, "..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** A process's user + system CPU time so far, in ms (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** req/s, p99, and the CPU (µs) the panels in `pids` spent per answer, all together. */
async function measure(
  url: string,
  cookie: string,
  pids: number[],
): Promise<{ rps: number; p99: number; cpu: number }> {
  const cpuBefore = pids.map(cpuMs);
  const result = await autocannon({ url, connections: 100, duration: seconds, headers: { cookie } });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpu = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - cpuBefore[i], 0);
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    cpu: Math.round((cpu * 1000) / result.requests.total),
  };
}

/** HAProxy on deploy/haproxy.cfg with these panels (the rest pointed at a closed port), once it has marked those down. */
async function balancer(panels: PanelProcess[]): Promise<{ url: string; stop(): Promise<void> }> {
  const [port, statsPort, closed] = [await freePort(), await freePort(), await freePort()];
  const address = (i: number) => (panels[i] ? panels[i].url.replace("http://", "") : `127.0.0.1:${closed}`);
  const child: ChildProcess = spawn("haproxy", ["-f", path.join(repoRoot, "deploy/haproxy.cfg")], {
    env: {
      ...process.env,
      OUTPOST_LB_BIND: `127.0.0.1:${port}`,
      OUTPOST_LB_STATS: `127.0.0.1:${statsPort}`,
      OUTPOST_PANEL_1: address(0),
      OUTPOST_PANEL_2: address(1),
      OUTPOST_PANEL_3: address(2),
    },
    stdio: ["ignore", "ignore", "ignore"],
  });
  const wanted = ["panel1", "panel2", "panel3"].map((_, i) => (panels[i] ? "UP" : "DOWN"));
  for (let tries = 0; ; tries++) {
    await sleep(250);
    try {
      const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
      const states = ["panel1", "panel2", "panel3"].map(
        (name) =>
          csv
            .split("\n")
            .find((l) => l.startsWith(`panels,${name},`))
            ?.split(",")[17] ?? "",
      );
      if (states.every((s, i) => s.startsWith(wanted[i]))) break;
    } catch {
      // not listening yet
    }
    if (tries > 120) throw new Error("HAProxy did not mark the panels as expected");
  }
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

async function main() {
  const cluster = await startPostgres();
  const name = `bench_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const databaseUrl = cluster.url.replace(/\/[^/]*$/, `/${name}`);
  const env = {
    OUTPOST_LOCAL_NODE: "false",
    OUTPOST_TRUST_PROXY: "127.0.0.1",
    OUTPOST_SECRET_KEY: randomBytes(32).toString("hex"),
  };
  const panels: PanelProcess[] = [];
  try {
    for (let i = 0; i < 3; i++) panels.push(await startPanel({ databaseUrl, env }));
    const api = new PanelClient(panels[0].url);
    if ((await api.login(admin.email, admin.password)).status !== 200) throw new Error("sign-in failed");
    const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    console.log(
      `${os.cpus().length} cores, ${seconds} s per round, GET /api/self, 100 connections; load average ${loadAverage()}`,
    );
    // Warm every panel up first (its JIT, its pool's connections): the first round is not to pay for it.
    await Promise.all(
      panels.map((p) =>
        autocannon({ url: `${p.url}/api/self`, connections: 20, duration: 3, headers: { cookie } }),
      ),
    );
    const direct = await measure(`${panels[0].url}/api/self`, cookie, [panels[0].pid]);
    console.log(`1 panel, no balancer: ${direct.rps} req/s, p99 ${direct.p99} ms`);
    const rounds: { n: number; rps: number; p99: number; cpu: number }[] = [];
    for (const n of [1, 2, 3]) {
      const lb = await balancer(panels.slice(0, n));
      try {
        const pids = panels.slice(0, n).map((p) => p.pid);
        rounds.push({ n, ...(await measure(`${lb.url}/api/self`, cookie, pids)) });
      } finally {
        await lb.stop();
      }
      const r = rounds[rounds.length - 1];
      console.log(
        `${n} panel(s) behind HAProxy: ${r.rps} req/s, p99 ${r.p99} ms (load average ${loadAverage()})`,
      );
    }
    console.log(
      "\n| panels behind HAProxy | req/s | ratio to 1 | p99 | panels' CPU per answer |\n|---|---|---|---|---|",
    );
    const line = (label: string, r: { rps: number; p99: number; cpu: number }) =>
      console.log(
        `| ${label} | ${r.rps} | ${(r.rps / rounds[0].rps).toFixed(2)} | ${r.p99} ms | ${r.cpu} µs |`,
      );
    line("1, no balancer", direct);
    for (const r of rounds) line(String(r.n), r);
  } finally {
    for (const p of panels) await p.stop();
    cluster.stop();
  }
}

await main();
