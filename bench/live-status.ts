/**
 * Live status for many viewers (issue 25): V viewers × S running servers,
 * watched through GET /api/live against the same viewers polling as the
 * server list did before it (GET …/status and GET …/stats of each running
 * server every 5 s, spread over the interval), on one panel with its local
 * node, in one run.
 *
 * Reports the panel's CPU per viewer in each mode (utime+stime of the panel
 * process over the window, which includes the in-process node's sampling),
 * the ratio, and for the live mode how long a status change takes to reach
 * every viewer: a server is started and stopped a few times, and each
 * viewer's frame is timed from the moment the action was sent.
 *
 * Run: node --import tsx bench/live-status.ts [viewers] [servers] [window seconds]
 */
import fs from "node:fs";
import { Agent, request } from "node:http";
import WebSocket from "ws";
import { echoDefinition } from "../tests/support/echo-template.ts";
import { PanelClient } from "../tests/support/http-client.ts";
import { admin, startPanel } from "../tests/support/panel-process.ts";

const viewers = Number(process.argv[2] ?? 300);
const serverCount = Number(process.argv[3] ?? 20);
const windowS = Number(process.argv[4] ?? 30);
const pollMs = 5000;
const ticksPerSecond = 100;

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/** The panel's CPU seconds and the wall seconds of a window, once the load has run an interval. */
async function measure(pid: number): Promise<{ cpu: number; seconds: number }> {
  await sleep(pollMs);
  const before = { cpu: cpuSeconds(pid), at: Date.now() };
  await sleep(windowS * 1000);
  return { cpu: cpuSeconds(pid) - before.cpu, seconds: (Date.now() - before.at) / 1000 };
}

async function main() {
  const panel = await startPanel({
    env: {
      OUTPOST_MAX_CONNECTIONS_PER_SESSION: String(viewers + 10),
      OUTPOST_MAX_CONNECTIONS_PER_USER: String(viewers + 10),
      OUTPOST_MAX_CONNECTIONS_PER_ADDRESS: String(viewers + 10),
    },
  });
  const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(
    `${viewers} viewers × ${serverCount} running servers, ${windowS} s windows; load average ${load}`,
  );
  try {
    const api = new PanelClient(panel.url);
    await api.login(admin.email, admin.password);
    const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const ids = Array.from({ length: serverCount }, (_, i) => `be11${String(i).padStart(4, "0")}`);
    for (const id of ids) {
      const created = await api.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: id,
        node: 0,
        users: [],
      });
      if (created.status !== 200) throw new Error(created.text);
      const started = await api.post(`/api/servers/${id}/start`);
      if (started.status !== 204) throw new Error(started.text);
    }
    const url = new URL(panel.url);

    // Polling as the list did: per viewer, every 5 s, status then stats of each running server.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path, agent, headers: { cookie } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end();
      });
    let polls = 0;
    let failed = 0;
    let polling = true;
    const viewer = async (n: number) => {
      await sleep((n / viewers) * pollMs);
      while (polling) {
        const round = Date.now();
        await Promise.all(
          ids.map(async (id) => {
            const status = await get(`/api/servers/${id}/status`);
            const stats = await get(`/api/servers/${id}/stats`);
            polls += 2;
            if (status !== 200 || stats !== 200) failed++;
          }),
        );
        await sleep(Math.max(0, pollMs - (Date.now() - round)));
      }
    };
    const pollers = Promise.all(Array.from({ length: viewers }, (_, n) => viewer(n)));
    const polled = await measure(panel.pid);
    const pollsInWindow = polls;
    polling = false;
    await pollers;
    agent.destroy();
    const rate = (cpu: number, seconds: number) =>
      `panel CPU ${cpu.toFixed(2)} s over ${seconds.toFixed(0)} s = ${((cpu / seconds) * 100).toFixed(1)} % of a core, ` +
      `${((cpu / seconds / viewers) * 1e6).toFixed(0)} µs of CPU per viewer-second`;
    console.log(
      `polling: about ${Math.round(pollsInWindow / (polled.seconds + pollMs / 1000))} requests/s (${failed} failed); ${rate(polled.cpu, polled.seconds)}`,
    );

    // Live: one socket per viewer, one watch of every server.
    const wsUrl = `${panel.url.replace(/^http/, "ws")}/api/live`;
    let frames = 0;
    const heard: ((frame: { type: string; id: string; running?: boolean }) => void)[] = [];
    const sockets = await Promise.all(
      Array.from(
        { length: viewers },
        (_, n) =>
          new Promise<WebSocket>((resolve, reject) => {
            const socket = new WebSocket(wsUrl, { headers: { cookie } });
            socket.on("message", (raw) => {
              frames++;
              heard[n]?.(JSON.parse(raw.toString()));
            });
            socket.once("open", () => {
              socket.send(JSON.stringify({ type: "watch", ids }));
              resolve(socket);
            });
            socket.once("error", reject);
          }),
      ),
    );
    const watched = await measure(panel.pid);
    console.log(`live: ${frames} frames to ${viewers} sockets; ${rate(watched.cpu, watched.seconds)}`);
    const ratio = watched.cpu / watched.seconds / (polled.cpu / polled.seconds);
    console.log(`ratio live / polling, CPU per viewer: ${ratio.toFixed(3)} (goal ≤ 0.1)`);

    // A status change to every viewer: stop and start one server, timed from the call.
    const delays: number[] = [];
    const target = ids[0];
    let missed = 0;
    const changes: string[] = [];
    for (const running of [false, true, false, true, false, true, false, true, false, true]) {
      const sent = Date.now();
      const mark = delays.length;
      const arrived = Promise.all(
        sockets.map(
          (_, n) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => {
                missed++;
                resolve();
              }, 10_000);
              heard[n] = (frame) => {
                if (frame.type !== "status" || frame.id !== target || frame.running !== running) return;
                delays.push(Date.now() - sent);
                clearTimeout(timer);
                heard[n] = () => {};
                resolve();
              };
            }),
        ),
      );
      const answer = await api.post(`/api/servers/${target}/${running ? "start" : "kill"}`);
      if (answer.status !== 204) throw new Error(answer.text);
      await arrived;
      // From the call: the action itself (a spawn, a kill) and the fan-out; first to last: the fan-out alone.
      const these = delays.slice(mark);
      changes.push(`${running ? "start" : "kill"} ${Math.min(...these)}–${Math.max(...these)}`);
      await sleep(1000);
    }
    delays.sort((a, b) => a - b);
    console.log(
      `status change to every viewer (10 changes × ${viewers}, ms from the call, first–last viewer: ${changes.join(", ")}): p50 ${quantile(delays, 0.5)} ms, p99 ${quantile(delays, 0.99)} ms, ` +
        `max ${delays.at(-1)} ms, missed ${missed}`,
    );
    for (const socket of sockets) socket.close();
  } finally {
    await panel.stop();
  }
}

await main();
