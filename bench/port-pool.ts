/**
 * Issue 36: creating 1 000 servers on a node with a pool of 10 000 ports, against creating 1 000
 * on a node without one (the thousand-servers bench's step), in the same run. Two real
 * `outpost daemon`s on loopback; the same definition on both, with a `port` variable: on the
 * pooled node each server takes a free allocation. Reports both times, their ratio (goal ≤ 1.5),
 * and checks that the pooled servers got 1 000 different ports. Bench only: no test asserts time.
 *
 * Run: npm run build && node --import tsx bench/port-pool.ts [servers] [pool]
 */
import { startDaemon } from "../tests/support/daemon-process.ts";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";

const count = Number(process.argv[2] ?? 1000);
const poolSize = Number(process.argv[3] ?? 10_000);

const definition = {
  type: "bench",
  display: "Idle",
  data: { port: { type: "integer", value: 25565, display: "Port" } },
  groups: [],
  install: [],
  run: { command: "sh -c 'while read line; do [ \"$line\" = stop ] && exit 0; done'", stop: "stop" },
  environment: { type: "host" },
  requirements: { os: "linux", binaries: ["sh"] },
};

async function inParallel<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const panel = await startPanel();
const daemons: { destroy(): Promise<void> }[] = [];
try {
  const api = new PanelClient(panel.url);
  await api.login(admin.email, admin.password);
  const addNode = async (name: string) => {
    const node = await api.post("/api/nodes", {
      name,
      publicHost: "127.0.0.1",
      publicPort: await freePort(),
      privateHost: "127.0.0.1",
      privatePort: await freePort(),
      sftpPort: await freePort(),
    });
    if (node.status !== 200) throw new Error(node.text);
    const deployment = await api.get(`/api/nodes/${node.body.id}/deployment`);
    daemons.push(await startDaemon(deployment.body.config));
    return node.body.id as number;
  };
  const plain = await addNode("no-pool");
  const pooled = await addNode("pool");
  const added = await api.post(`/api/nodes/${pooled}/allocations`, {
    ip: "0.0.0.0",
    ports: `20000-${20000 + poolSize - 1}`,
  });
  if (added.status !== 200) throw new Error(added.text);

  const createAll = async (prefix: string, node: number) => {
    const ids = Array.from({ length: count }, (_, n) => `${prefix}${n.toString(16).padStart(6, "0")}`);
    const t = performance.now();
    await inParallel(ids, 8, async (id) => {
      const r = await api.put(`/api/servers/${id}`, { ...definition, name: `Bench ${id}`, node });
      if (r.status !== 200) throw new Error(`${id}: ${r.status} ${r.text}`);
    });
    return (performance.now() - t) / 1000;
  };
  const reference = await createAll("r", plain);
  const withPool = await createAll("p", pooled);
  const held = (
    (await api.get(`/api/nodes/${pooled}/allocations`)).body as { serverId: string | null }[]
  ).filter((entry) => entry.serverId !== null);
  if (held.length !== count) throw new Error(`${held.length} allocations held, not ${count}`);
  const load = (await import("node:os")).loadavg().map((l) => l.toFixed(1));
  console.log(`${count} servers per node, pool of ${poolSize}; load average ${load.join(", ")}`);
  console.log("| step | time |\n|---|---|");
  console.log(`| create ${count} on a node without a pool (8 at a time) | ${reference.toFixed(1)} s |`);
  console.log(
    `| create ${count} on a node with ${poolSize} ports (8 at a time) | ${withPool.toFixed(1)} s |`,
  );
  console.log(`| ratio (goal ≤ 1.5) | ${(withPool / reference).toFixed(2)} |`);
  console.log(`${held.length} allocations held, each by one server`);
} catch (error) {
  console.error(`panel's last output:\n${panel.logs().slice(-3000)}`);
  throw error;
} finally {
  for (const daemon of daemons) await daemon.destroy();
  await panel.stop();
}
