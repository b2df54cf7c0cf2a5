import fs from "node:fs/promises";
import os from "node:os";
import type { ServerCgroup } from "./cgroups/index.ts";

/**
 * CPU and memory of a process group, read from /proc: the sum over every
 * process whose group id is the leader's pid. CPU is the percentage of one
 * core used between two samples (so it can pass 100 on several cores).
 */
export interface ProcessStats {
  cpu: number;
  memory: number;
}

const ticksPerSecond = 100; // USER_HZ on Linux
const pageSize = 4096;

interface Sample {
  ticks: number;
  rss: number;
  at: number;
}

async function sampleGroup(pgid: number): Promise<Sample> {
  let ticks = 0;
  let rss = 0;
  const entries = await fs.readdir("/proc").catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (pid) => {
        const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
        // The command name may hold spaces and parentheses: fields start after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) !== pgid) return;
        ticks += Number(fields[11]) + Number(fields[12]);
        rss += Number(fields[21]) * pageSize;
      }),
  );
  return { ticks, rss, at: performance.now() };
}

export class TreeStats {
  private last?: Sample;

  constructor(private readonly pgid: number) {}

  async sample(): Promise<ProcessStats> {
    const now = await sampleGroup(this.pgid);
    const prev = this.last;
    this.last = now;
    if (!prev || now.at <= prev.at) return { cpu: 0, memory: now.rss };
    const cpuSeconds = (now.ticks - prev.ticks) / ticksPerSecond;
    const wallSeconds = (now.at - prev.at) / 1000;
    const cpu = Math.max(0, Math.min((cpuSeconds / wallSeconds) * 100, os.availableParallelism() * 100));
    return { cpu: Math.round(cpu * 100) / 100, memory: now.rss };
  }
}

/** The same figures from the server's cgroup: every process it started, whatever its group. */
export class CgroupStats {
  private last?: { cpuNanos: number; at: number };

  constructor(private readonly cgroup: ServerCgroup) {}

  async sample(): Promise<ProcessStats> {
    const usage = await this.cgroup.usage();
    const now = { cpuNanos: usage.cpuNanos, at: performance.now() };
    const prev = this.last;
    this.last = now;
    if (!prev || now.at <= prev.at) return { cpu: 0, memory: usage.memoryBytes };
    const cpu = ((now.cpuNanos - prev.cpuNanos) / 1e6 / (now.at - prev.at)) * 100;
    const bounded = Math.max(0, Math.min(cpu, os.availableParallelism() * 100));
    return { cpu: Math.round(bounded * 100) / 100, memory: usage.memoryBytes };
  }
}
