import fs from "node:fs/promises";
import path from "node:path";
import { errorText } from "../../../errors.ts";
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
import { cpuThreadsUnavailable, weightPerHundred } from "./pinning.ts";
import { SwapGuard } from "./swap.ts";

/**
 * cgroup v1: `parents` maps each controller (memory, pids, cpu, cpuacct, freezer; cpuset and
 * blkio where mounted) to its group's parent folder. A server's group is made in cpuset and
 * blkio only when it has CPU threads or an IO weight (a cpuset group takes no process until its
 * CPUs and memory nodes are set).
 */
export class CgroupV1Driver implements CgroupDriver {
  readonly version = 1;

  constructor(
    private readonly parents: Partial<Record<V1Controller, string>>,
    private readonly swap = new SwapGuard(),
  ) {}

  private group(
    name: string,
    controllers: readonly V1Controller[] = v1Controllers,
  ): {
    group: V1Group;
    dirs: Partial<Record<V1Controller, string>>;
    unique: string[];
  } {
    const dirs: Partial<Record<V1Controller, string>> = {};
    for (const controller of controllers) {
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
    // A group left by a daemon that died is emptied and made again.
    await this.group(name).group.remove();
    const cpus = limits.cpus;
    if (cpus !== undefined && !this.parents.cpuset) {
      throw cpuThreadsUnavailable(cpus, "no cgroup v1 hierarchy has the cpuset controller");
    }
    const withIo = limits.ioWeight !== undefined && this.parents.blkio !== undefined;
    if (limits.ioWeight !== undefined && !withIo) {
      this.swap.skipped("IO weight", "no cgroup v1 hierarchy has the blkio controller");
    }
    const controllers = v1Controllers.filter(
      (c) => (c !== "cpuset" || cpus !== undefined) && (c !== "blkio" || withIo),
    );
    const { group, dirs, unique } = this.group(name, controllers);
    for (const dir of unique) await fs.mkdir(dir, { recursive: true });
    try {
      await this.write(dirs, group, limits);
      return group;
    } catch (error) {
      // Never a half-limited group: a start that fails here leaves none behind.
      await group.remove().catch(() => {});
      throw error;
    }
  }

  private async write(
    dirs: Partial<Record<V1Controller, string>>,
    group: V1Group,
    limits: ResolvedLimits,
  ): Promise<void> {
    if (dirs.memory && limits.memoryBytes !== undefined) {
      await writeValue(dirs.memory, "memory.limit_in_bytes", limits.memoryBytes);
      if (limits.swapBytes === "max") {
        // As much swap as the host has: what a kernel without swap accounting gives anyway.
        await writeValue(dirs.memory, "memory.memsw.limit_in_bytes", -1).catch(() => {});
      } else {
        // Memory and swap together: the limit plus the server's swap (none by default). The file is
        // absent when the kernel does not account swap (swapaccount=0): then the guard decides.
        const memsw = limits.memoryBytes + (limits.swapBytes ?? 0);
        await this.swap.limit(dirs.memory, "memory.memsw.limit_in_bytes", memsw, () => group.remove());
      }
    }
    if (dirs.pids && limits.pids !== undefined) await writeValue(dirs.pids, "pids.max", limits.pids);
    if (dirs.cpu && limits.cpuPercent !== undefined) {
      await writeValue(dirs.cpu, "cpu.cfs_period_us", cfsPeriodMicros);
      await writeValue(dirs.cpu, "cpu.cfs_quota_us", Math.round((cfsPeriodMicros * limits.cpuPercent) / 100));
    }
    const cpus = limits.cpus;
    if (dirs.cpuset && cpus !== undefined) {
      const file = path.join(dirs.cpuset, "cpuset.cpus");
      try {
        // The memory nodes first, the parent's: a v1 cpuset with none takes no process.
        const mems = (await readText(path.dirname(dirs.cpuset), "cpuset.mems")).trim();
        await writeValue(dirs.cpuset, "cpuset.mems", mems || "0");
        await writeValue(dirs.cpuset, "cpuset.cpus", cpus);
      } catch (error) {
        throw cpuThreadsUnavailable(cpus, `${file}: ${errorText(error)}`);
      }
    }
    if (dirs.blkio && limits.ioWeight !== undefined) await this.ioWeight(dirs.blkio, limits.ioWeight);
  }

  /** blkio.weight (the CFQ scheduler), else blkio.bfq.weight (BFQ); neither: the default share, logged. */
  private async ioWeight(dir: string, weight: number): Promise<void> {
    try {
      await writeValue(dir, "blkio.weight", weight);
    } catch (error) {
      const bfq = await writeValue(dir, "blkio.bfq.weight", weightPerHundred(weight)).then(
        () => true,
        () => false,
      );
      if (!bfq) this.swap.skipped("IO weight", `${path.join(dir, "blkio.weight")}: ${errorText(error)}`);
    }
  }
}

export const v1Controllers = ["memory", "pids", "cpu", "cpuacct", "freezer", "cpuset", "blkio"] as const;
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
