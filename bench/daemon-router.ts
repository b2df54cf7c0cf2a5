/**
 * The daemon's route lookup, in one run, on its real route table (every route the daemon
 * declares) and the paths a panel calls: server/daemon/http/router.ts (find-my-way, Fastify's
 * router) against the hand-written matcher it replaced (bench/daemon-router-handwritten.ts),
 * and bare find-my-way for the wrapper's own cost. Also their size bundled and minified as in
 * the daemon bundle (one file, parsed at every start).
 *
 * Run: node --import tsx bench/daemon-router.ts [lookups per round] [rounds]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { daemonBackupRoutes } from "../server/daemon/backups/backup-routes.ts";
import { daemonEventRoutes } from "../server/daemon/events/event-routes.ts";
import { daemonFileRoutes } from "../server/daemon/files/file-routes.ts";
import { daemonHistoryRoutes } from "../server/daemon/history/history-routes.ts";
import { type Match, type RouteOptions, Router, type RouteSchemas } from "../server/daemon/http/router.ts";
import { daemonQueryRoutes } from "../server/daemon/query/query-routes.ts";
import { daemonServerRoutes } from "../server/daemon/server-routes.ts";
import { daemonSftpRoutes } from "../server/daemon/sftp/sftp-routes.ts";
import { daemonTaskRoutes } from "../server/daemon/tasks/task-routes.ts";
import { daemonTransferRoutes } from "../server/daemon/transfers/transfer-routes.ts";
import { HandWrittenRouter } from "./daemon-router-handwritten.ts";

const lookups = Number(process.argv[2] ?? 200_000);
const rounds = Number(process.argv[3] ?? 7);
const repoRoot = path.resolve(import.meta.dirname, "..");

/** Registers nothing itself: keeps every route the daemon declares, for both routers. */
class Recording extends Router {
  readonly declared: RouteOptions<RouteSchemas>[] = [];
  override route<S extends RouteSchemas>(options: RouteOptions<S>): void {
    this.declared.push(options as RouteOptions<RouteSchemas>);
    super.route(options);
  }
}

// The route functions only close over their ops; none is called while registering.
const ops = {} as never;
const ours = new Recording();
ours.get("/daemon", {}, () => undefined);
ours.get("/daemon/features", {}, () => undefined);
for (const add of [
  daemonServerRoutes,
  daemonFileRoutes,
  daemonBackupRoutes,
  daemonQueryRoutes,
  daemonSftpRoutes,
  daemonTaskRoutes,
  daemonHistoryRoutes,
  daemonEventRoutes,
  daemonTransferRoutes,
]) {
  add(ours, ops);
}

const handWritten = new HandWrittenRouter();
const theirs = FindMyWay({ ignoreTrailingSlash: true });
for (const route of ours.declared) {
  handWritten.route(route);
  theirs.on(route.methods as HTTPMethod[], route.url, () => undefined, route);
}
const viaFindMyWay = (method: string, path: string) =>
  theirs.find(method as HTTPMethod, path) ?? (method === "HEAD" ? theirs.find("GET", path) : null);

// What a panel sends to a node with a few servers: status and stats polls most, then files,
// console, tasks, backups; ids as the panel makes them (8 hex digits), file paths percent-encoded.
const ids = ["1a2b3c4d", "9f8e7d6c", "00ff00ff", "deadbeef"];
const calls: [string, string][] = [];
for (const id of ids) {
  const server = `/daemon/server/${id}`;
  calls.push(
    ["GET", `${server}/status`],
    ["GET", `${server}/stats`],
    ["GET", `${server}/status`],
    ["GET", `${server}/stats`],
    ["GET", `${server}/file/`],
    ["GET", `${server}/file/world/level.dat`],
    ["HEAD", `${server}/file/logs/latest.log`],
    ["PUT", `${server}/file/config/server%20settings.properties`],
    ["POST", `${server}/console`],
    ["GET", `${server}/tasks`],
    ["GET", `${server}/backup`],
    ["POST", `${server}/start`],
    ["GET", `${server}/socket`],
  );
}
calls.push(
  ["GET", "/daemon"],
  ["GET", "/daemon/features"],
  ["GET", "/daemon/events"],
  ["GET", "/daemon/space"],
);

// All three must pick the same route for every call, or the comparison means nothing.
for (const [method, path] of calls) {
  const a = ours.find(method, path)?.route.url;
  const b = handWritten.find(method, path)?.route.url;
  const c = (viaFindMyWay(method, path)?.store as RouteOptions<RouteSchemas> | undefined)?.url;
  if (a === undefined || a !== b || a !== c) throw new Error(`${method} ${path}: ${a}, ${b}, ${c}`);
}

function timeNs(find: (method: string, path: string) => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < lookups; i++) {
    const [method, path] = calls[i % calls.length];
    find(method, path);
  }
  return Number(process.hrtime.bigint() - started) / lookups;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const finders: [string, (method: string, path: string) => unknown][] = [
  ["router.ts (find-my-way)", (method, path): Match | undefined => ours.find(method, path)],
  ["hand-written (before)", (method, path) => handWritten.find(method, path)],
  ["bare find-my-way", viaFindMyWay],
];
const times = finders.map(() => [] as number[]);
for (const [, find] of finders) timeNs(find);
// Interleaved rounds: a busy moment on a shared machine slows all of them, not one.
for (let round = 0; round < rounds; round++) {
  for (const [i, [, find]] of finders.entries()) times[i].push(timeNs(find));
}

/** `entry` bundled and minified as the daemon bundle is (one ES module file), and its size. */
async function bundled(entry: string, name: string): Promise<{ file: string; kib: number }> {
  const file = path.join(os.tmpdir(), `outpost-router-bench-${process.pid}-${name}.mjs`);
  const out = await build({
    entryPoints: [path.join(repoRoot, entry)],
    outfile: file,
    bundle: true,
    minify: true,
    platform: "node",
    format: "esm",
    metafile: true,
    // typebox is in the daemon bundle anyway (validation); ws is loaded on the first socket.
    external: ["ws", "typebox", "typebox/*"],
  });
  return { file, kib: Object.values(out.metafile.outputs)[0].bytes / 1024 };
}

const oursBundle = await bundled("server/daemon/http/router.ts", "ours");
const handBundle = await bundled("bench/daemon-router-handwritten.ts", "hand-written");
for (const { file } of [oursBundle, handBundle]) fs.rmSync(file, { force: true });

console.log(`${ours.declared.length} routes, ${calls.length} paths, ${lookups} lookups x ${rounds} rounds`);
const medians = times.map(median);
finders.forEach(([name], i) => {
  const ratio = medians[i] / medians[0];
  console.log(
    `${name.padEnd(24)} ${medians[i].toFixed(0).padStart(6)} ns a lookup (median), ${ratio.toFixed(2)} x router.ts`,
  );
});
console.log(
  `bundled, minified: router.ts ${oursBundle.kib.toFixed(1)} KiB, hand-written ${handBundle.kib.toFixed(1)} KiB`,
);
