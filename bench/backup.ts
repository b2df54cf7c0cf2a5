/**
 * A backup of a ~1 GB server folder through the API, beside `tar czf` of the
 * same tree in the same run. The tree mixes incompressible random files, log
 * like text and many small files in nested folders. While the backup runs
 * the panel's resident memory is sampled from /proc/<pid>/status, to show it
 * stays flat (files are streamed, never held whole).
 *
 * Run: node --import tsx bench/backup.ts [megabytes]   (default 1024; BENCH_PROFILE=<dir> to profile the panel)
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";

const MB = 1024 * 1024;
const totalMb = Number(process.argv[2] ?? 1024);

/**
 * Text as game servers log it: 4 MiB of varied lines made once, each file a
 * slice of it from its own offset. gzip looks back only 32 KiB, so slices
 * compress like fresh text (3–5×).
 */
const logBase = (() => {
  const names = ["Steve", "Alex", "Notch", "jeb_", "Dinnerbone", "Grumm", "Herobrine", "Kingbdogz"];
  const actions = ["joined the game", "left the game", "placed block", "broke block", "said hello", "died"];
  const lines: string[] = [];
  let size = 0;
  let state = 2463534242;
  while (size < 4 * MB) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const n = state >>> 0;
    const line = `[${String(n % 24).padStart(2, "0")}:${String((n >> 5) % 60).padStart(2, "0")}:${String((n >> 11) % 60).padStart(2, "0")}] [Server thread/INFO]: ${names[n % names.length]} ${actions[(n >> 3) % actions.length]} at x=${(n % 20000) - 10000} y=${(n >> 7) % 256} z=${((n >> 9) % 20000) - 10000}\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(""));
})();

function logText(bytes: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  let offset = (seed * 7919) % logBase.length;
  for (let at = 0; at < bytes; ) {
    const copied = logBase.copy(out, at, offset, Math.min(logBase.length, offset + bytes - at));
    at += copied;
    offset = 0;
  }
  return out;
}

/** ~30 % random (incompressible), ~40 % log text in 8 MB files, ~30 % small files in nested folders. */
function makeTree(root: string, megabytes: number): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const write = (file: string, data: Buffer) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
    files++;
    bytes += data.length;
  };
  const randomMb = Math.round(megabytes * 0.3);
  for (let i = 0; i * 32 < randomMb; i++) {
    const out = fs.openSync(path.join(root, `world-${i}.dat`), "w");
    for (let m = 0; m < Math.min(32, randomMb - i * 32); m++) {
      const chunk = randomBytes(MB);
      fs.writeSync(out, chunk);
      bytes += chunk.length;
    }
    fs.closeSync(out);
    files++;
  }
  const textMb = Math.round(megabytes * 0.4);
  for (let i = 0; i * 8 < textMb; i++) {
    write(path.join(root, "logs", `server-${i}.log`), logText(Math.min(8, textMb - i * 8) * MB, i + 1));
  }
  const smallBytes = Math.round(megabytes * 0.3) * MB;
  let made = 0;
  for (let i = 0; made < smallBytes; i++) {
    const size = 2048 + ((i * 7919) % 30_000);
    const data = i % 3 === 0 ? randomBytes(size) : logText(size, 1000 + i);
    write(path.join(root, "region", `r${i % 40}`, `c${Math.floor(i / 40) % 50}`, `chunk-${i}.mca`), data);
    made += size;
  }
  fs.symlinkSync("logs/server-0.log", path.join(root, "latest.log"));
  return { files, bytes };
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Runs tar czf under GNU time: wall seconds and the CPU seconds of tar and its gzip. */
function timedTar(archive: string, folder: string): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "%e %U %S", "tar", "czf", archive, "-C", folder, "."], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`tar exited with ${code}: ${err}`));
      const [wall, user, system] = err.trim().split("\n").at(-1)?.split(" ").map(Number) ?? [];
      resolve({ wall, cpu: user + system });
    });
  });
}

/** CPU seconds a process has used so far (user + system, from /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-bench-backup-"));
const panel = await startPanel({
  nodeArgs: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
});
try {
  const api = new PanelClient(panel.url);
  await api.login(admin.email, admin.password);
  const id = "bac0bac0";
  const created = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: "backup bench", node: 0 });
  if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);

  // The tree is made beside the panel's data (same file system) and moved into the server's folder.
  const tree = path.join(scratch, "tree");
  fs.mkdirSync(tree);
  const started = Date.now();
  const { files, bytes } = makeTree(tree, totalMb);
  console.log(
    `tree: ${files} files, ${(bytes / MB).toFixed(0)} MiB, made in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const root = path.join(panel.dataDir, "node", "servers", id);
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(tree, root);

  // tar czf of the same folder, the reference.
  const tarFile = path.join(scratch, "reference.tar.gz");
  const tar = await timedTar(tarFile, root);
  const tarSeconds = tar.wall;
  const tarSize = fs.statSync(tarFile).size;
  fs.rmSync(tarFile);

  // The backup through the API, until the list says ready; memory sampled meanwhile.
  const before = rssMb(panel.pid);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(panel.pid)), 100);
  const cpuBefore = cpuSeconds(panel.pid);
  const backupStart = process.hrtime.bigint();
  const asked = await api.post(`/api/servers/${id}/backup/create?name=bench`);
  if (asked.status !== 204) throw new Error(`backup: ${asked.status} ${asked.text}`);
  let backup: { id: number; state: string; size: number; error?: string } | undefined;
  for (;;) {
    const list = await api.get(`/api/servers/${id}/backup`);
    backup = list.body[0];
    if (backup && backup.state !== "creating") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const backupSeconds = Number(process.hrtime.bigint() - backupStart) / 1e9;
  const backupCpu = cpuSeconds(panel.pid) - cpuBefore;
  clearInterval(sampler);
  if (backup.state !== "ready") throw new Error(`backup failed: ${backup.error}`);

  const mib = bytes / MB;
  const peak = Math.max(...samples);
  console.log(
    `tar czf:          ${tarSeconds.toFixed(1)} s (${(mib / tarSeconds).toFixed(0)} MiB/s), archive ${(tarSize / MB).toFixed(0)} MiB`,
  );
  console.log(
    `backup via API:   ${backupSeconds.toFixed(1)} s (${(mib / backupSeconds).toFixed(0)} MiB/s), archive ${(backup.size / MB).toFixed(0)} MiB`,
  );
  console.log(`ratio: the backup takes ${(backupSeconds / tarSeconds).toFixed(2)}× tar czf's time`);
  // On a shared machine wall time follows the load; CPU time is the steadier comparison.
  console.log(
    `CPU: tar czf (tar + gzip) ${tar.cpu.toFixed(1)} s, panel during the backup ${backupCpu.toFixed(1)} s (${(backupCpu / tar.cpu).toFixed(2)}×); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  console.log(
    `panel RSS: ${before.toFixed(0)} MiB before; during the backup min ${Math.min(...samples).toFixed(0)}, ` +
      `max ${peak.toFixed(0)} MiB (${samples.length} samples, peak ${(peak - before).toFixed(0)} MiB above before)`,
  );
  // Flat means no growth with the bytes written: the same level early, midway and late.
  const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * share))];
  console.log(
    `panel RSS over the backup: ${[0.1, 0.25, 0.5, 0.75, 0.9].map((q) => `${q * 100}%: ${at(q).toFixed(0)}`).join(", ")} MiB`,
  );
} finally {
  await panel.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
