import fs from "node:fs/promises";
import path from "node:path";
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
import { SwapGuard } from "./swap.ts";

/** cgroup v2: groups are made under `parent`, whose subtree_control must allow memory, pids and cpu. */
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
    await fs.mkdir(dir);
    if (limits.memoryBytes !== undefined) {
      await writeValue(dir, "memory.max", limits.memoryBytes);
      // No swap: refused where the kernel does not account swap (then the guard decides).
      await this.swap.limit(dir, "memory.swap.max", 0, () => group.remove());
    }
    if (limits.pids !== undefined) await writeValue(dir, "pids.max", limits.pids);
    if (limits.cpuPercent !== undefined) {
      await writeValue(
        dir,
        "cpu.max",
        `${Math.round((cfsPeriodMicros * limits.cpuPercent) / 100)} ${cfsPeriodMicros}`,
      );
    }
    return group;
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
