/**
 * Moving a server between nodes (issue 26) beside `tar | ssh`-style copying
 * of the same tree on loopback, in one run. The machine has no sshd, so the
 * reference is the pipe without the encryption: `tar c` writing straight
 * into a TCP socket on 127.0.0.1 and `tar x` reading straight from the other
 * end (both tars are handed the socket itself, no relay in between), as
 * Outpost's tars are too (transfer-connection.ts). Outpost does more around
 * the bytes (the hold and the offer's size, both tars in bubblewrap, what
 * tar made tidied, the sizes compared, the definition and backups moved, the
 * panel's record switched), so the ratio says what that costs.
 *
 * A panel with its local node and a daemon on loopback; the server moves
 * local → remote, then back, each timed from the API call to its answer.
 *
 * Run: node --import tsx bench/transfer.ts [megabytes] [rounds]   (default 512, 3)
 * With TMPDIR on a tmpfs (e.g. /dev/shm/…) every tree, the panel's and the daemon's, is there:
 * the disk's write-back, which sets both sides' times on a slow disk, is out of the figures.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startDaemon } from "../tests/support/daemon-process.ts";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { freePort } from "../tests/support/free-port.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";

const MB = 1024 * 1024;
const totalMb = Number(process.argv[2] ?? 512);
const rounds = Number(process.argv[3] ?? 3);

/** Half random 16 MiB files, half small files (4–64 KiB) in nested folders, like a game world. */
function makeTree(root: string, megabytes: number): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (let i = 0; i * 16 < megabytes / 2; i++) {
    const out = fs.openSync(path.join(root, `region-${i}.mca`), "w");
    for (let m = 0; m < 16; m++) fs.writeSync(out, randomBytes(MB));
    fs.closeSync(out);
    files++;
    bytes += 16 * MB;
  }
  while (bytes < megabytes * MB) {
    const folder = path.join(root, "data", `d${files % 37}`, `e${files % 11}`);
    fs.mkdirSync(folder, { recursive: true });
    const size = 4096 + ((files * 7919) % 61440);
    fs.writeFileSync(path.join(folder, `f${files}.dat`), randomBytes(size));
    files++;
    bytes += size;
  }
  return { files, bytes };
}

/** `tar c -C from . | (TCP on loopback) | tar x -C to`, timed from the first spawn to tar x's exit. */
async function tarOverTcp(from: string, to: string): Promise<number> {
  fs.mkdirSync(to, { recursive: true });
  const started = performance.now();
  const received = new Promise<void>((resolve, reject) => {
    const server = net.createServer({ pauseOnConnect: true }, (socket) => {
      const child = spawn("tar", ["x", "-C", to], { stdio: [socket, "inherit", "inherit"] });
      child.on("exit", (code) => {
        socket.destroy();
        server.close();
        code === 0 ? resolve() : reject(new Error(`tar x exited ${code}`));
      });
    });
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      const socket = net.connect(port, "127.0.0.1", () => {
        const child = spawn("tar", ["c", "-C", from, "."], { stdio: ["ignore", socket, "inherit"] });
        child.on("exit", () => socket.end());
      });
    });
  });
  await received;
  return performance.now() - started;
}

/**
 * Each timed copy starts with the disk quiet: the old copy a move deletes
 * behind its answer gone, and the write-back done. Otherwise the one that
 * follows another pays for the megabytes still being removed or written.
 */
async function settle(serversDirs: string[]): Promise<void> {
  const deleting = () =>
    serversDirs.some((dir) => fs.readdirSync(dir).some((name) => name.includes(".deleted-")));
  while (deleting()) await new Promise((resolve) => setTimeout(resolve, 50));
  spawnSync("sync");
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const rate = (bytes: number, ms: number) => `${(bytes / MB / (ms / 1000)).toFixed(0)} MiB/s`;

const panel = await startPanel({});
const daemonPort = await freePort();
const api = new PanelClient(panel.url);
await api.login(admin.email, admin.password);
const node = await api.post("/api/nodes", {
  name: "bench",
  publicHost: "127.0.0.1",
  publicPort: await freePort(),
  privateHost: "127.0.0.1",
  privatePort: daemonPort,
  sftpPort: await freePort(),
});
const deployment = await api.get(`/api/nodes/${node.body.id}/deployment`);
const daemon = await startDaemon(deployment.body.config);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-bench-transfer-"));
try {
  const id = "benchmove";
  const made = await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 });
  if (made.status !== 200) throw new Error(made.text);
  const root = path.join(panel.dataDir, "node", "servers", id);
  const serversDirs = [path.dirname(root), path.join(daemon.config.dataDir, "servers")];
  const tree = makeTree(root, totalMb);
  console.log(
    `tree: ${tree.files} files, ${(tree.bytes / MB).toFixed(0)} MiB; load ${os.loadavg()[0].toFixed(1)}`,
  );

  const reference: number[] = [];
  const outpost: number[] = [];
  // The same copies timed until their bytes are on the disk (the answer, then `sync`): what the
  // page cache has not written yet is counted as well, for both.
  const referenceDurable: number[] = [];
  const outpostDurable: number[] = [];
  const untilDurable = (ms: number) => {
    const started = performance.now();
    spawnSync("sync");
    return ms + performance.now() - started;
  };
  for (let round = 0; round < rounds; round++) {
    const copy = path.join(scratch, `copy-${round}`);
    await settle(serversDirs);
    reference.push(await tarOverTcp(root, copy));
    referenceDurable.push(untilDurable(reference[round]));
    console.log(
      `reference ${round}: ${seconds(reference[round])} s (on disk ${seconds(referenceDurable[round])} s)`,
    );
    fs.rmSync(copy, { recursive: true, force: true });
    for (const to of [node.body.id, 0]) {
      await settle(serversDirs);
      const started = performance.now();
      const res = await api.post(`/api/servers/${id}/transfer`, { node: to });
      if (res.status !== 204) throw new Error(`transfer: ${res.status} ${res.text}`);
      outpost.push(performance.now() - started);
      outpostDurable.push(untilDurable(outpost.at(-1) ?? 0));
      console.log(
        `moved to ${to}: ${seconds(outpost.at(-1) ?? 0)} s (on disk ${seconds(outpostDurable.at(-1) ?? 0)} s)`,
      );
    }
  }
  const best = (xs: number[]) => Math.min(...xs);
  console.log(
    `tar c | TCP | tar x: ${reference.map(seconds).join(", ")} s (best ${rate(tree.bytes, best(reference))})`,
  );
  console.log(
    `Outpost moves (local→remote, remote→local, twice): ${outpost.map(seconds).join(", ")} s (best ${rate(tree.bytes, best(outpost))})`,
  );
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const ratio = (ours: number[], theirs: number[], pick: (xs: number[]) => number) =>
    (pick(theirs) / pick(ours)).toFixed(2);
  console.log(
    `throughput, Outpost / tar over TCP: best of each ${ratio(outpost, reference, best)}, medians ${ratio(outpost, reference, median)}; until on disk: best ${ratio(outpostDurable, referenceDurable, best)}, medians ${ratio(outpostDurable, referenceDurable, median)}`,
  );
  console.log(`load at the end ${os.loadavg()[0].toFixed(1)}`);
} finally {
  await daemon.destroy();
  await panel.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
