/**
 * File transfer: a 1 GiB file uploaded through `PUT /api/servers/{id}/file/…`
 * (raw body, streamed by curl) and downloaded back through GET, beside the
 * same file copied with curl through a plain loopback server in the same run
 * (a static file server for the download, a tiny server that writes the body
 * to disk for the upload). Reports MB/s (10^6 bytes) of each, the ratio
 * panel/reference, and the panel's RSS (VmRSS) sampled during the transfers:
 * streaming means it stays flat whatever the file size.
 *
 * The panel's upload ends with an fsync of the new file before it replaces
 * the old one (so a crash cannot leave a hollow file); the reference is run
 * both without and with that fsync. Rounds interleave panel and reference,
 * so the load of a shared machine falls on both alike; medians are shown.
 *
 * Run: node --import tsx bench/file-transfer.ts [MiB] [rounds]   (default 1024 MiB, 3 rounds)
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";
import { serveFolder } from "../tests/support/static-server.ts";

const mebibytes = Number(process.argv[2] ?? 1024);
const rounds = Number(process.argv[3] ?? 3);
const size = mebibytes * 1024 * 1024;
const serverId = "be0f11e5";

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const mbps = (seconds: number) => size / 1e6 / seconds;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Writes `size` random bytes, 16 MiB at a time. */
async function makeFile(file: string): Promise<void> {
  const chunk = 16 * 1024 * 1024;
  const out = fs.createWriteStream(file);
  for (let written = 0; written < size; written += chunk) {
    if (!out.write(randomBytes(Math.min(chunk, size - written)))) {
      await new Promise<void>((r) => out.once("drain", () => r()));
    }
  }
  await new Promise<void>((resolve, reject) => {
    out.once("error", reject);
    out.end(() => resolve());
  });
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** Runs curl; answers the HTTP status and curl's own transfer time in seconds. */
function curl(args: string[]): Promise<{ status: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("curl", ["-sS", "-w", "%{http_code} %{time_total}", ...args]);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`curl failed (${code}): ${err}`));
      const [status, seconds] = out.trim().split(" ").map(Number);
      resolve({ status, seconds });
    });
  });
}

/** Samples a process's RSS every 50 ms while `work` runs; answers the work's result and the peak. */
async function sampled<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 50);
  try {
    const result = await work();
    peak = Math.max(peak, rssMiB(pid));
    return { result, peakMiB: peak };
  } finally {
    clearInterval(timer);
  }
}

/** The upload reference: writes each PUT body to a file in `dir` (and fsyncs it when `?sync` is given). */
async function uploadServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const [name, query] = (req.url ?? "/").slice(1).split("?");
    const file = path.join(dir, path.basename(name));
    try {
      await pipeline(req, fs.createWriteStream(file));
      if (query === "sync") {
        const handle = await fs.promises.open(file, "r+");
        await handle.sync();
        await handle.close();
      }
      res.writeHead(204).end();
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function expectStatus(what: string, status: number, wanted: number): void {
  if (status !== wanted) throw new Error(`${what} answered ${status}`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-bench-files-"));
const source = path.join(work, "source.bin");
fs.mkdirSync(path.join(work, "ref-up"));
const panel = await startPanel();
const staticServer = await serveFolder(work);
const uploads = await uploadServer(path.join(work, "ref-up"));
try {
  console.log(`making a ${mebibytes} MiB file of random bytes…`);
  await makeFile(source);
  const expected = await sha256Of(source);

  const api = new PanelClient(panel.url);
  const login = await api.login(admin.email, admin.password);
  if (login.status !== 200) throw new Error(login.text);
  const created = await api.put(`/api/servers/${serverId}`, { ...echoDefinition(), node: 0, users: [] });
  if (created.status !== 200) throw new Error(created.text);
  const session = [
    ...["-H", `cookie: ${[...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ")}`],
    ...["-H", `x-xsrf-token: ${api.cookies.get("XSRF-TOKEN")}`],
  ];
  const fileUrl = `${panel.url}/api/servers/${serverId}/file/big.bin`;
  const stored = path.join(panel.dataDir, "node", "servers", serverId, "big.bin");
  const rssIdle = rssMiB(panel.pid);

  // curl -T streams the file (--data-binary @file would read it whole into curl first).
  const putArgs = (url: string) => [
    ...["-T", source, "-X", "PUT", "-H", "Expect:", "-H", "content-type: application/octet-stream"],
    ...["-o", "/dev/null", url],
  ];
  const seconds = { panelUp: [] as number[], refUp: [] as number[], refUpSync: [] as number[] };
  const downSeconds = { panel: [] as number[], ref: [] as number[] };
  let peakUp = 0;
  let peakDown = 0;
  for (let round = 0; round < rounds; round++) {
    const refUp = await curl(putArgs(`${uploads.url}/ref.bin`));
    expectStatus("reference upload", refUp.status, 204);
    seconds.refUp.push(refUp.seconds);
    const panelUp = await sampled(panel.pid, () => curl([...session, ...putArgs(fileUrl)]));
    expectStatus("panel upload", panelUp.result.status, 204);
    seconds.panelUp.push(panelUp.result.seconds);
    peakUp = Math.max(peakUp, panelUp.peakMiB);
    const refUpSync = await curl(putArgs(`${uploads.url}/ref-sync.bin?sync`));
    expectStatus("reference upload with fsync", refUpSync.status, 204);
    seconds.refUpSync.push(refUpSync.seconds);

    const refDown = await curl(["-o", path.join(work, "ref-down.bin"), `${staticServer.url}/source.bin`]);
    expectStatus("reference download", refDown.status, 200);
    downSeconds.ref.push(refDown.seconds);
    const panelDown = await sampled(panel.pid, () =>
      curl([...session, "-o", path.join(work, "panel-down.bin"), fileUrl]),
    );
    expectStatus("panel download", panelDown.result.status, 200);
    downSeconds.panel.push(panelDown.result.seconds);
    peakDown = Math.max(peakDown, panelDown.peakMiB);
    if (round === 0) {
      // Byte for byte, both ways.
      if ((await sha256Of(stored)) !== expected) throw new Error("the panel stored different bytes");
      const downloaded = await sha256Of(path.join(work, "panel-down.bin"));
      if (downloaded !== expected) throw new Error("the panel sent different bytes");
    }
    console.log(`round ${round + 1}/${rounds} done`);
  }
  const rssAfter = rssMiB(panel.pid);

  const row = (what: string, panelS: number[], refS: number[], peak: number) =>
    `| ${what} | ${mbps(median(panelS)).toFixed(0)} | ${mbps(median(refS)).toFixed(0)} | ${(median(refS) / median(panelS)).toFixed(2)} | ${peak.toFixed(0)} |`;
  console.log(
    `\n${mebibytes} MiB file over loopback, curl on both sides, median of ${rounds} interleaved rounds; ` +
      `panel RSS idle ${rssIdle.toFixed(0)} MiB, after ${rssAfter.toFixed(0)} MiB\n`,
  );
  console.log("| transfer | panel MB/s | reference MB/s | panel/reference | panel peak RSS MiB |");
  console.log("|---|---|---|---|---|");
  console.log(row("upload (PUT, raw body)", seconds.panelUp, seconds.refUp, peakUp));
  console.log(row("upload, reference also fsyncs", seconds.panelUp, seconds.refUpSync, peakUp));
  console.log(row("download (GET)", downSeconds.panel, downSeconds.ref, peakDown));
} finally {
  await panel.stop();
  await staticServer.close();
  await uploads.close();
  fs.rmSync(work, { recursive: true, force: true });
}
