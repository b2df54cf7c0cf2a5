import fs from "node:fs/promises";
import path from "node:path";
import type { CgroupDriver, CgroupUsage, ResolvedLimits, ServerCgroup } from "./driver.ts";
import {
  cfsPeriodMicros,
  keyed,
  killListed,
  namesWithPrefix,
  pidsOf,
  readText,
  removeDir,
  writeValue,
} from "./files.ts";
import { SwapGuard } from "./swap.ts";

/** cgroup v1: `mounts` maps each controller (memory, pids, cpu, cpuacct, freezer) to its group's parent folder. */
export class CgroupV1Driver implements CgroupDriver {
  readonly version = 1;

  constructor(
    private readonly parents: Partial<Record<V1Controller, string>>,
    private readonly swap = new SwapGuard(),
  ) {}

  private group(name: string): {
    group: V1Group;
    dirs: Partial<Record<V1Controller, string>>;
    unique: string[];
  } {
    const dirs: Partial<Record<V1Controller, string>> = {};
    for (const controller of v1Controllers) {
      const parent = this.parents[controller];
      if (parent) dirs[controller] = path.join(parent, name);
    }
    const unique = [...new Set(Object.values(dirs))];
    return { group: new V1Group(dirs, unique), dirs, unique };
  }

  async removeLeftovers(prefix: string): Promise<number> {
    const parents = [...new Set(Object.values(this.parents))];
    const names = await namesWithPrefix(parents, prefix);
    for (const name of names) await this.group(name).group.remove();
    return names.length;
  }

  async create(name: string, limits: ResolvedLimits): Promise<ServerCgroup> {
    const { group, dirs, unique } = this.group(name);
    // A group left by a daemon that died is emptied and made again.
    await group.remove();
    for (const dir of unique) await fs.mkdir(dir, { recursive: true });
    if (dirs.memory && limits.memoryBytes !== undefined) {
      await writeValue(dirs.memory, "memory.limit_in_bytes", limits.memoryBytes);
      // No swap beyond the limit. The file is absent when the kernel does not account swap
      // (swapaccount=0): then the guard decides.
      await this.swap.limit(dirs.memory, "memory.memsw.limit_in_bytes", limits.memoryBytes, () =>
        group.remove(),
      );
    }
    if (dirs.pids && limits.pids !== undefined) await writeValue(dirs.pids, "pids.max", limits.pids);
    if (dirs.cpu && limits.cpuPercent !== undefined) {
      await writeValue(dirs.cpu, "cpu.cfs_period_us", cfsPeriodMicros);
      await writeValue(dirs.cpu, "cpu.cfs_quota_us", Math.round((cfsPeriodMicros * limits.cpuPercent) / 100));
    }
    return group;
  }
}

export const v1Controllers = ["memory", "pids", "cpu", "cpuacct", "freezer"] as const;
export type V1Controller = (typeof v1Controllers)[number];

class V1Group implements ServerCgroup {
  constructor(
    private readonly dirs: Partial<Record<V1Controller, string>>,
    private readonly unique: string[],
  ) {}

  async add(pid: number): Promise<void> {
    for (const dir of this.unique) await writeValue(dir, "cgroup.procs", pid);
  }

  async usage(): Promise<CgroupUsage> {
    let memoryBytes = 0;
    if (this.dirs.memory) {
      const used = Number(await readText(this.dirs.memory, "memory.usage_in_bytes")) || 0;
      const inactiveFile = keyed(await readText(this.dirs.memory, "memory.stat"), "total_inactive_file");
      memoryBytes = Math.max(0, used - inactiveFile);
    }
    const cpuNanos = this.dirs.cpuacct ? Number(await readText(this.dirs.cpuacct, "cpuacct.usage")) || 0 : 0;
    return { cpuNanos, memoryBytes };
  }

  async oomKills(): Promise<number> {
    return this.dirs.memory ? keyed(await readText(this.dirs.memory, "memory.oom_control"), "oom_kill") : 0;
  }

  async killAll(): Promise<void> {
    // Frozen, nothing inside can fork while it is being killed.
    const freezer = this.dirs.freezer;
    if (freezer) await writeValue(freezer, "freezer.state", "FROZEN").catch(() => {});
    const anyDir = this.unique[0];
    if (anyDir) {
      for (const pid of await pidsOf(anyDir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
      }
    }
    if (freezer) await writeValue(freezer, "freezer.state", "THAWED").catch(() => {});
    for (const dir of this.unique) await killListed(dir);
  }

  async remove(): Promise<void> {
    const present = [];
    for (const dir of this.unique) if (await fs.stat(dir).catch(() => undefined)) present.push(dir);
    if (present.length === 0) return;
    await this.killAll();
    for (const dir of present) await removeDir(dir);
  }
}
