/**
 * A soak: the panel with its local node runs 5 servers that each print 200
 * lines a second, watched by 20 WebSocket clients (4 per server), for
 * `seconds` (10 minutes by default). Reports the panel's resident memory at
 * the start (watchers attached), the middle and the end, its highest, and
 * whether every watcher kept receiving its server's lines to the end. Bench
 * only, not a test: it asserts no time and no memory figure.
 *
 * Run: npm run build && node --import tsx bench/soak.ts [seconds]
 */
import fs from "node:fs";
import os from "node:os";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";
import { openServerSocket } from "../tests/support/socket-client.ts";

const seconds = Number(process.argv[2] ?? 600);
const serverCount = 5;
const watchersPerServer = 4;
const linesPerSecond = 200;

const rssMiB = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

// 20 lines every 100 ms, numbered, until stopped.
const printer = `let i=0;setInterval(()=>{let s="";for(let k=0;k<${linesPerSecond / 10};k++)s+="line "+(i++)+" of a soak, padded to look like a log line\\n";process.stdout.write(s)},100);process.stdin.on("data",()=>process.exit(0))`;

const panel = await startPanel({ env: { OUTPOST_MAX_CONNECTIONS_PER_SESSION: "200" } });
try {
  const api = new PanelClient(panel.url);
  await api.login(admin.email, admin.password);
  const ids = Array.from({ length: serverCount }, (_, n) => `50a4000${n}`);
  for (const id of ids) {
    const definition = echoDefinition({
      run: { command: `${process.execPath} -e '${printer}'`, stop: "stop" },
      requirements: {},
    });
    const created = await api.put(`/api/servers/${id}`, { ...definition, node: 0 });
    if (created.status !== 200) throw new Error(created.text);
  }
  // Each watcher counts the lines it gets and forgets them.
  const received = new Array(serverCount * watchersPerServer).fill(0);
  const lastAt = new Array(serverCount * watchersPerServer).fill(0);
  const sockets = await Promise.all(
    received.map(async (_, n) => {
      const socket = await openServerSocket(api, ids[Math.floor(n / watchersPerServer)]);
      socket.frames.push = (...frames) => {
        for (const frame of frames) {
          if (frame.type !== "console") continue;
          const text = Buffer.from(frame.data.logs, "base64").toString();
          received[n] += text.split("\n").length - 1;
          lastAt[n] = Date.now();
        }
        return 0;
      };
      return socket;
    }),
  );
  for (const id of ids) {
    const started = await api.post(`/api/servers/${id}/start?wait`);
    if (started.status !== 204) throw new Error(started.text);
  }
  const samples: { at: number; rss: number }[] = [];
  const began = Date.now();
  while (Date.now() - began < seconds * 1000) {
    samples.push({ at: (Date.now() - began) / 1000, rss: rssMiB(panel.pid) });
    await new Promise((r) => setTimeout(r, 5000));
  }
  samples.push({ at: (Date.now() - began) / 1000, rss: rssMiB(panel.pid) });
  const end = Date.now();
  for (const id of ids) await api.post(`/api/servers/${id}/kill`);
  for (const socket of sockets) socket.close();

  const at = (fraction: number) =>
    samples[Math.min(samples.length - 1, Math.floor(samples.length * fraction))];
  const stale = lastAt.filter((t) => end - t > 5000).length;
  const expected = linesPerSecond * seconds;
  console.log(
    `${serverCount} servers × ${linesPerSecond} lines/s, ${received.length} watchers, ${seconds} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}`,
  );
  console.log("| | panel RSS |\n|---|---|");
  console.log(`| start (${samples[0].at.toFixed(0)} s) | ${samples[0].rss} MiB |`);
  console.log(`| middle (${at(0.5).at.toFixed(0)} s) | ${at(0.5).rss} MiB |`);
  console.log(`| end (${samples.at(-1)?.at.toFixed(0)} s) | ${samples.at(-1)?.rss} MiB |`);
  console.log(`| highest | ${Math.max(...samples.map((s) => s.rss))} MiB |`);
  console.log(
    `lines per watcher: min ${Math.min(...received)}, max ${Math.max(...received)} (about ${expected} printed per server); watchers silent for the last 5 s: ${stale}`,
  );
} finally {
  await panel.stop();
}
