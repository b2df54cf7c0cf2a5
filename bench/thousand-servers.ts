/**
 * 1 000 servers on one node, through the panel's API: create them, list them
 * (every page of 100), start 100 of them (each a small process printing a line
 * a second), stop them all. Reports the time of each step and the resident
 * memory of the panel and of the node's daemon after each.
 *
 * The node is a real `outpost daemon` on loopback (`remote`, the default), so
 * the panel's and the daemon's memory are apart; `local` puts the servers on
 * the panel's own node (one process). Bench only, not a test: it asserts no
 * time.
 *
 * Run: npm run build && node --import tsx bench/thousand-servers.ts [remote|local] [servers] [started]
 *      (BENCH_PROFILE=<dir> writes a CPU profile of the panel there)
 */
import fs from "node:fs";
import { startDaemon } from "../tests/support/daemon-process.ts";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";

const where = process.argv[2] ?? "remote";
const count = Number(process.argv[3] ?? 1000);
const started = Number(process.argv[4] ?? 100);

const rssMiB = (pid: number | undefined) =>
  pid
    ? Math.round(
        Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
      )
    : 0;

/** A server that prints one line a second and leaves on "stop". */
const definition = {
  type: "bench",
  display: "Printer",
  data: {},
  groups: [],
  install: [],
  run: {
    command: `sh -c 'while true; do echo tick; sleep 1; done & p=$!; while read line; do [ "$line" = stop ] && { kill $p; exit 0; }; done'`,
    stop: "stop",
  },
  environment: { type: "host" },
  requirements: { os: "linux", binaries: ["sh"] },
};

const ids = Array.from({ length: count }, (_, n) => `b${n.toString(16).padStart(7, "0")}`);

/** Runs `work` over the items, `parallel` at a time. */
async function inParallel<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const panel = await startPanel({
  nodeArgs: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
});
let daemonPid: number | undefined;
let stopDaemon = async () => {};
let daemonLogs = () => "";
const rows: string[] = [];
try {
  const api = new PanelClient(panel.url);
  await api.login(admin.email, admin.password);
  let nodeId = 0;
  if (where === "remote") {
    const node = await api.post("/api/nodes", {
      name: "bench",
      publicHost: "127.0.0.1",
      publicPort: await freePort(),
      privateHost: "127.0.0.1",
      privatePort: await freePort(),
      sftpPort: await freePort(),
    });
    if (node.status !== 200) throw new Error(node.text);
    nodeId = node.body.id;
    const deployment = await api.get(`/api/nodes/${nodeId}/deployment`);
    const daemon = await startDaemon(deployment.body.config);
    stopDaemon = () => daemon.destroy();
    daemonLogs = () => daemon.logs();
    daemonPid = daemon.pid();
  }
  const step = async (label: string, work: () => Promise<void>) => {
    const t = performance.now();
    await work();
    const seconds = ((performance.now() - t) / 1000).toFixed(1);
    rows.push(
      `| ${label} | ${seconds} s | ${rssMiB(panel.pid)} MiB | ${daemonPid ? `${rssMiB(daemonPid)} MiB` : "-"} |`,
    );
  };
  rows.push(`| at start | | ${rssMiB(panel.pid)} MiB | ${daemonPid ? `${rssMiB(daemonPid)} MiB` : "-"} |`);

  await step(`create ${count} servers (8 requests at a time)`, () =>
    inParallel(ids, 8, async (id) => {
      const r = await api.put(`/api/servers/${id}`, { ...definition, name: `Bench ${id}`, node: nodeId });
      if (r.status !== 200) throw new Error(`${id}: ${r.status} ${r.text}`);
    }),
  );
  await step(`list all ${count} (pages of 100)`, async () => {
    let seen = 0;
    for (let page = 1; seen < count; page++) {
      const r = await api.get(`/api/servers?limit=100&page=${page}`);
      if (r.status !== 200 || r.body.servers.length === 0) throw new Error(`page ${page}: ${r.text}`);
      seen += r.body.servers.length;
    }
  });
  const toStart = ids.slice(0, started);
  await step(`start ${started} (8 at a time, until each runs)`, () =>
    inParallel(toStart, 8, async (id) => {
      const r = await api.post(`/api/servers/${id}/start?wait`);
      if (r.status !== 204) throw new Error(`${id}: ${r.status} ${r.text}`);
    }),
  );
  await new Promise((r) => setTimeout(r, 10_000));
  rows.push(
    `| ${started} running for 10 s | | ${rssMiB(panel.pid)} MiB | ${daemonPid ? `${rssMiB(daemonPid)} MiB` : "-"} |`,
  );
  await step(`stop all ${started} (8 at a time, until each stopped)`, () =>
    inParallel(toStart, 8, async (id) => {
      const r = await api.post(`/api/servers/${id}/stop?wait`);
      if (r.status !== 204) throw new Error(`${id}: ${r.status} ${r.text}`);
    }),
  );
  for (const id of toStart) {
    const r = await api.get(`/api/servers/${id}/status`);
    if (r.body.running) throw new Error(`${id} still runs`);
  }
} catch (error) {
  console.error(
    `daemon's last output:\n${daemonLogs().slice(-3000)}\npanel's:\n${panel.logs().slice(-3000)}`,
  );
  throw error;
} finally {
  await stopDaemon();
  await panel.stop();
}
console.log(
  `${count} servers on a ${where} node; load average ${(await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
console.log("| step | time | panel RSS | daemon RSS |\n|---|---|---|---|");
console.log(rows.join("\n"));
