import fs from "node:fs/promises";
import path from "node:path";
import { errorText } from "../../../errors.ts";
import type { CgroupDriver, CgroupUsage, ResolvedLimits, ServerCgroup } from "./driver.ts";
import {
  cfsPeriodMicros,
  keyed,
  killListed,
  namesWithPrefix,
  readText,
  removeDir,
  writeValue,
} from "./files.ts";
import { cpuThreadsUnavailable, weightPerHundred } from "./pinning.ts";
import { SwapGuard } from "./swap.ts";

/**
 * cgroup v2: groups are made under `parent`, whose subtree_control must allow memory, pids and
 * cpu, and cpuset and io for servers with CPU threads or an IO weight.
 */
export class CgroupV2Driver implements CgroupDriver {
  readonly version = 2;

  constructor(
    private readonly parent: string,
    private readonly swap = new SwapGuard(),
  ) {}

  async removeLeftovers(prefix: string): Promise<number> {
    const names = await namesWithPrefix([this.parent], prefix);
    for (const name of names) await new V2Group(path.join(this.parent, name)).remove();
    return names.length;
  }

  async create(name: string, limits: ResolvedLimits): Promise<ServerCgroup> {
    const dir = path.join(this.parent, name);
    const group = new V2Group(dir);
    await group.remove();
    // The controllers the parent hands its groups: cpuset and io only where the host delegates them.
    const control = path.join(this.parent, "cgroup.subtree_control");
    const enabled = (await readText(this.parent, "cgroup.subtree_control")).split(/\s+/);
    if (limits.cpus !== undefined && !enabled.includes("cpuset")) {
      throw cpuThreadsUnavailable(limits.cpus, `the cpuset controller is not enabled in ${control}`);
    }
    await fs.mkdir(dir);
    try {
      await this.write(dir, group, limits);
      if (limits.ioWeight === undefined) return group;
      if (!enabled.includes("io"))
        this.swap.skipped("IO weight", `the io controller is not enabled in ${control}`);
      else await this.ioWeight(dir, limits.ioWeight);
      return group;
    } catch (error) {
      // Never a half-limited group: a start that fails here leaves none behind.
      await group.remove().catch(() => {});
      throw error;
    }
  }

  private async write(dir: string, group: V2Group, limits: ResolvedLimits): Promise<void> {
    if (limits.memoryBytes !== undefined) {
      await writeValue(dir, "memory.max", limits.memoryBytes);
      if (limits.swapBytes === "max") {
        // As much swap as the host has: what a kernel without swap accounting gives anyway.
        await writeValue(dir, "memory.swap.max", "max").catch(() => {});
      } else {
        // No swap, or the server's own: refused where the kernel does not account swap (then the guard decides).
        await this.swap.limit(dir, "memory.swap.max", limits.swapBytes ?? 0, () => group.remove());
      }
    }
    if (limits.pids !== undefined) await writeValue(dir, "pids.max", limits.pids);
    if (limits.cpuPercent !== undefined) {
      await writeValue(
        dir,
        "cpu.max",
        `${Math.round((cfsPeriodMicros * limits.cpuPercent) / 100)} ${cfsPeriodMicros}`,
      );
    }
    const cpus = limits.cpus;
    if (cpus !== undefined) {
      await writeValue(dir, "cpuset.cpus", cpus).catch((error) => {
        throw cpuThreadsUnavailable(cpus, `${path.join(dir, "cpuset.cpus")}: ${errorText(error)}`);
      });
    }
  }

  /** io.weight (blk-iocost), else io.bfq.weight (the BFQ scheduler); neither: the default share, logged. */
  private async ioWeight(dir: string, weight: number): Promise<void> {
    const value = `default ${weightPerHundred(weight)}`;
    try {
      await writeValue(dir, "io.weight", value);
    } catch (error) {
      const bfq = await writeValue(dir, "io.bfq.weight", value).then(
        () => true,
        () => false,
      );
      if (!bfq) this.swap.skipped("IO weight", `${path.join(dir, "io.weight")}: ${errorText(error)}`);
    }
  }
}

class V2Group implements ServerCgroup {
  constructor(private readonly dir: string) {}

  add(pid: number): Promise<void> {
    return writeValue(this.dir, "cgroup.procs", pid);
  }

  async usage(): Promise<CgroupUsage> {
    const current = Number(await readText(this.dir, "memory.current")) || 0;
    const inactiveFile = keyed(await readText(this.dir, "memory.stat"), "inactive_file");
    const usageMicros = keyed(await readText(this.dir, "cpu.stat"), "usage_usec");
    return { cpuNanos: usageMicros * 1000, memoryBytes: Math.max(0, current - inactiveFile) };
  }

  async oomKills(): Promise<number> {
    return keyed(await readText(this.dir, "memory.events"), "oom_kill");
  }

  async killAll(): Promise<void> {
    // cgroup.kill (Linux 5.14+) kills everything at once; older kernels: one by one.
    await writeValue(this.dir, "cgroup.kill", 1).catch(() => {});
    await killListed(this.dir);
  }

  async remove(): Promise<void> {
    if (!(await fs.stat(this.dir).catch(() => undefined))) return;
    await this.killAll();
    await removeDir(this.dir);
  }
}
