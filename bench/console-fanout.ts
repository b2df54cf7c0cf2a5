/**
 * Console fan-out: a server printing 10 000 lines/s, watched by 100 WebSocket
 * clients of the panel. Reports lines/s delivered to each client against
 * lines/s produced, the p99 delay from print to arrival, and the panel's
 * memory before and after.
 *
 * Run: node --import tsx bench/console-fanout.ts [seconds]  (BENCH_PROFILE=<dir> to profile the panel)
 */
import fs from "node:fs";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";
import { openServerSocket } from "../tests/support/socket-client.ts";

const seconds = Number(process.argv[2] ?? 10);
const clients = 100;
const linesPerSecond = 10_000;

const rssMiB = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

// 100 lines every 10 ms, each stamped with the time it was printed.
const printer = `let i=0;const t=setInterval(()=>{let s="";for(let k=0;k<${linesPerSecond / 100};k++)s+=Date.now()+" line "+(i++)+"\\n";process.stdout.write(s)},10);setTimeout(()=>{clearInterval(t)},${seconds * 1000})`;

// 100 sockets of one session: above the default per-session cap, which a bench is not testing.
/** The first and last lines with an index (daemon messages may stand before or after). */
function edgeLines(text: string): string[] {
  const lines = [];
  let from = 0;
  for (let k = 0; k < 3 && from <= text.length; k++) {
    const to = text.indexOf("\n", from);
    lines.push(text.slice(from, to < 0 ? undefined : to));
    if (to < 0) return lines;
    from = to + 1;
  }
  let to = text.length;
  const tail = [];
  for (let k = 0; k < 3 && to > from; k++) {
    const start = text.lastIndexOf("\n", to - 1) + 1;
    tail.unshift(text.slice(Math.max(start, from), to));
    to = start - 1;
  }
  return [...lines, ...tail];
}

const panel = await startPanel({
  env: { OUTPOST_MAX_CONNECTIONS_PER_SESSION: "200" },
  nodeArgs: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
});
try {
  const api = new PanelClient(panel.url);
  await api.login(admin.email, admin.password);
  const definition = echoDefinition({
    run: { command: `${process.execPath} -e '${printer}'`, stop: "stop" },
    requirements: {},
  });
  const created = await api.put("/api/servers/be0c0a50", { ...definition, node: 0 });
  if (created.status !== 200) throw new Error(created.text);
  const memoryBefore = rssMiB(panel.pid);

  const delays: number[] = [];
  let highest = -1;
  const counts = new Array(clients).fill(0);
  // Lines a client never got: the first line of a frame must follow the last of the one before.
  const gaps = new Array(clients).fill(0);
  const sockets = await Promise.all(Array.from({ length: clients }, () => openServerSocket(api, "be0c0a50")));
  const indexOf = (line: string) => (/^\d{13} line (\d+)$/.exec(line) ? Number(line.split(" ")[2]) : -1);
  sockets.forEach((socket, n) => {
    let partial = "";
    let next = 0;
    const frames = socket.frames;
    // Count lines as frames arrive instead of keeping them. The 100 clients share this process:
    // client 0 reads every line (for the delays); the others read a frame's first and last lines,
    // which is enough to count, as the output is one ordered stream.
    frames.push = (...items) => {
      const now = Date.now();
      for (const frame of items) {
        if (frame.type !== "console") continue;
        const text = partial + Buffer.from(frame.data.logs, "base64").toString();
        const end = text.lastIndexOf("\n");
        partial = text.slice(end + 1);
        if (end < 0) continue;
        const lines = n === 0 ? text.slice(0, end).split("\n") : edgeLines(text.slice(0, end));
        let first = -1;
        let last = -1;
        for (const line of lines) {
          const i = indexOf(line);
          if (i < 0) continue;
          if (first < 0) first = i;
          last = i;
          if (n === 0) {
            delays.push(now - Number(line.split(" ")[0]));
            highest = Math.max(highest, i);
          }
        }
        if (first < 0) continue;
        if (first !== next) gaps[n] += first - next;
        counts[n] += last - first + 1;
        next = last + 1;
      }
      return 0;
    };
  });
  const started = Date.now();
  await api.post("/api/servers/be0c0a50/start?wait");
  await new Promise((r) => setTimeout(r, seconds * 1000 + 2000));
  const elapsed = (Date.now() - started) / 1000;
  const memoryAfter = rssMiB(panel.pid);
  for (const socket of sockets) socket.close();

  // What the printer managed to print (a loaded machine may fall behind its schedule).
  const produced = highest + 1;
  const perClient = counts.reduce((a, b) => a + b, 0) / clients;
  delays.sort((a, b) => a - b);
  const p = (q: number) => delays[Math.min(delays.length - 1, Math.floor(delays.length * q))];
  console.log(
    `produced: ${produced} lines in ${seconds} s (${Math.round(produced / seconds)} lines/s, aimed at ${linesPerSecond})`,
  );
  console.log(
    `delivered per client: ${Math.round(perClient)} lines (${((perClient / produced) * 100).toFixed(1)} %), ${Math.round(perClient / seconds)} lines/s; all ${clients} clients: ${Math.round((perClient * clients) / seconds)} lines/s`,
  );
  console.log(
    `delay print → client: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${delays.at(-1)} ms (${elapsed.toFixed(1)} s run)`,
  );
  const missing = gaps.reduce((a, b) => a + b, 0);
  const complete = counts.filter((c) => c === produced).length;
  console.log(`clients with every line: ${complete} of ${clients}; lines skipped in a stream: ${missing}`);
  console.log(`panel memory: ${memoryBefore} MiB before, ${memoryAfter} MiB after`);
} finally {
  await panel.stop();
}
