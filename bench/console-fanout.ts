/**
 * Console fan-out: a server printing 10 000 lines/s, watched by 100 WebSocket
 * clients of the panel. Reports lines/s delivered to each client against
 * lines/s produced, the p99 delay from print to arrival, and the panel's
 * memory before and after.
 *
 * Run: node --import tsx bench/console-fanout.ts [seconds]
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

const panel = await startPanel();
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
  const sockets = await Promise.all(Array.from({ length: clients }, () => openServerSocket(api, "be0c0a50")));
  sockets.forEach((socket, n) => {
    let partial = "";
    const frames = socket.frames;
    // Count lines as frames arrive instead of keeping them.
    frames.push = (...items) => {
      const now = Date.now();
      for (const frame of items) {
        if (frame.type !== "console") continue;
        const text = partial + Buffer.from(frame.data.logs, "base64").toString();
        const lines = text.split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          const stamp = Number(line.split(" ")[0]);
          if (!(stamp > 1e12) || !line.includes(" line ")) continue;
          counts[n]++;
          if (n === 0) {
            delays.push(now - stamp);
            highest = Math.max(highest, Number(line.split(" ")[2]));
          }
        }
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
  console.log(`panel memory: ${memoryBefore} MiB before, ${memoryAfter} MiB after`);
} finally {
  await panel.stop();
}
