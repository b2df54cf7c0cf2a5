import fs from "node:fs";
import net from "node:net";
import { waitUntil } from "./poll.ts";

/**
 * Connections on local `port` that the other side has closed and this side
 * has not read to their end yet (TCP state CLOSE_WAIT, from /proc/net/tcp*):
 * how a paused process's kernel holds the news that a client went away.
 */
export function peerClosedConnections(port: number): number {
  let count = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").slice(1) : [];
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local && Number.parseInt(local.split(":")[1] ?? "", 16) === port && state === "08") count++;
    }
  }
  return count;
}

/**
 * Runs `act` with process `pid` paused (SIGSTOP), then waits until the
 * process's listening `port` holds one more connection its peer closed, and
 * lets the process go on (SIGCONT): on resuming it finds a client gone while
 * its work was under way, the same every run, whatever the machine's speed.
 */
export async function whilePaused(pid: number, port: number, act: () => void | Promise<void>): Promise<void> {
  process.kill(pid, "SIGSTOP");
  try {
    const before = peerClosedConnections(port);
    await act();
    await waitUntil(async () => peerClosedConnections(port) > before, 10_000, 10);
  } finally {
    process.kill(pid, "SIGCONT");
  }
}

/** Sends a request's head on a raw socket and leaves it open (the caller goes away by destroying it). */
export function sendHead(url: string, method: string, rawPath: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on("error", () => {});
  const lines = Object.entries({ host: "x", ...headers }).map(([k, v]) => `${k}: ${v}`);
  socket.write(`${method} ${rawPath} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
  return socket;
}

/** Polls `read` until it answers the same value `times` times in a row, and answers that value. */
export async function settledValue<T>(read: () => T, times = 10, everyMs = 100): Promise<T> {
  let last = read();
  for (let same = 0; same < times; ) {
    await new Promise((r) => setTimeout(r, everyMs));
    const now = read();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}
