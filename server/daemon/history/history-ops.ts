import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type HistoryRange,
  type HistoryView,
  type NodeHistory,
  type NodeHistoryView,
  rangeMs,
} from "../../contract/node/history-wire.ts";
import type { ProcessStats } from "../runtime/tree-stats.ts";
import type { ManagedServer } from "../servers/managed-server.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { HistoryStore, hourMs } from "./history-store.ts";
import { thinOut } from "./roll-up.ts";

/** Seconds between two samples, by default. */
const defaultSeconds = 30;

/** A chart needs no more points than a wide screen has pixels to spare. */
const maxPoints = 1440;
/** The node overview shows each server as a small sparkline. */
const overviewPoints = 60;
/** du over a large server takes a while: a measurement this recent (or the disk watcher's) is reused. */
const diskMaxAgeMs = 5 * 60_000;

export interface HistorySources {
  servers: ServerStore;
  /** The server's CPU and memory, reusing the live stats' sample when one is recent enough. */
  sample(server: ManagedServer, maxAgeMs: number): Promise<ProcessStats>;
  /** The player count, when the server's query answers (null otherwise). */
  players(id: string): Promise<number | null>;
}

const nodeKey = "node";
const serverKey = (id: string) => `server-${id}`;

/**
 * Resource history of a node and its running servers (issue 24): one round
 * per interval samples every running server in turn, and the node itself,
 * into a HistoryStore in the node's data folder. Each round waits the
 * interval after the previous one ends, so a slow round never piles up.
 */
export class HistoryOps implements NodeHistory {
  readonly store: HistoryStore;
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private closed = false;
  /** The host's CPU times at the last round: its CPU is the share busy since then. */
  private lastCpu = cpuTimes();

  constructor(
    private readonly sources: HistorySources,
    private readonly dataDir: string,
    readonly intervalMs = defaultSeconds * 1000,
  ) {
    this.store = new HistoryStore(path.join(dataDir, "history"));
  }

  private log: (msg: string) => void = () => {};

  /** Reads the history kept before a restart back, then samples every interval. */
  async start(log?: (msg: string) => void): Promise<void> {
    if (log) this.log = log;
    for (const key of this.store.keys()) await this.store.load(key);
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.round;
    await this.store.flush();
  }

  async serverHistory(id: string, range: HistoryRange): Promise<HistoryView> {
    this.sources.servers.get(id); // ErrServerNotFound for a server this node does not hold
    return this.view(serverKey(id), range, maxPoints);
  }

  async nodeHistory(range: HistoryRange): Promise<NodeHistoryView> {
    const servers: Record<string, HistoryView> = {};
    for (const server of this.sources.servers.list()) {
      servers[server.id] = await this.view(serverKey(server.id), range, overviewPoints);
    }
    const disk = await fs.promises.statfs(this.dataDir);
    return {
      ...(await this.view(nodeKey, range, maxPoints)),
      totals: { cpus: os.availableParallelism(), memory: os.totalmem(), disk: disk.blocks * disk.bsize },
      servers,
    };
  }

  /** Raw samples for the short ranges, hourly roll-ups for the long ones; merged further past `limit` points. */
  private async view(key: string, range: HistoryRange, limit: number): Promise<HistoryView> {
    const since = Date.now() - rangeMs[range];
    const hourly = range === "7d" || range === "30d";
    const points = hourly ? await this.store.hourly(key, since) : await this.store.fine(key, since);
    const thin = thinOut(points, hourly ? hourMs : this.intervalMs, rangeMs[range], limit);
    return {
      range,
      step: thin.stepMs / 1000,
      points: thin.points.map(({ n: _n, ...point }) => point),
    };
  }

  /** One round: the node, then each running server; series of servers gone are dropped. */
  async sampleAll(): Promise<void> {
    const time = Date.now();
    await this.store.record(nodeKey, { time, ...(await this.nodeSample()) });
    const servers = this.sources.servers.list();
    const running = servers.filter((server) => server.status().running);
    // Asked all at once: each is bounded by the query's timeout, and most servers have none.
    const players = new Map(
      running.map((server) => [server.id, this.sources.players(server.id).catch(() => null)]),
    );
    for (const server of running) {
      if (this.closed) return;
      try {
        const stats = await this.sources.sample(server, this.intervalMs / 2);
        const disk = await server.disk.usage(Math.max(this.intervalMs, diskMaxAgeMs)).catch(() => undefined);
        const count = await players.get(server.id);
        await this.store.record(serverKey(server.id), {
          time,
          cpu: stats.cpu,
          memory: stats.memory,
          ...(disk !== undefined ? { disk } : {}),
          ...(count !== null && count !== undefined ? { players: count } : {}),
        });
      } catch (error) {
        this.log(`server ${server.id}: resource history not sampled: ${(error as Error).message}`);
      }
    }
    const known = new Set(servers.map((server) => serverKey(server.id)));
    for (const key of this.store.keys()) {
      if (key !== nodeKey && !known.has(key)) await this.store.forget(key);
    }
  }

  /** The host's CPU (percent of all its cores since the last round), memory in use, and disk used under the data folder's file system. */
  private async nodeSample(): Promise<{ cpu: number; memory: number; disk: number }> {
    const { idle, total } = cpuTimes();
    const last = this.lastCpu;
    this.lastCpu = { idle, total };
    const busy = total > last.total ? 1 - (idle - last.idle) / (total - last.total) : 0;
    const disk = await fs.promises.statfs(this.dataDir);
    return {
      cpu: Math.round(Math.max(0, Math.min(1, busy)) * 10_000) / 100,
      memory: os.totalmem() - os.freemem(),
      disk: (disk.blocks - disk.bfree) * disk.bsize,
    };
  }

  private schedule(delayMs = this.intervalMs): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.round = this.sampleAll()
        .catch((error: Error) => this.log(`resource history not sampled: ${error.message}`))
        .finally(() => {
          this.round = undefined;
          this.schedule();
        });
    }, delayMs);
    this.timer.unref();
  }
}

/** The host's CPU times so far, summed over its cores (milliseconds). */
function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.idle + times.user + times.nice + times.sys + times.irq;
  }
  return { idle, total };
}
