import fs from "node:fs/promises";
import path from "node:path";

/**
 * Resource limits through cgroups, behind one interface with a driver for
 * each kernel interface: v1 (one hierarchy per controller, as on hosts that
 * boot that way; cpu and cpuacct may or may not share a mount) and v2 (the
 * unified tree of current distributions). The node picks one at start from
 * /proc/self/mountinfo; a host with neither runs servers without limits and
 * leaves `limits` out of its features.
 */

/** Limits as the kernel takes them; undefined = no limit. */
export interface ResolvedLimits {
  memoryBytes?: number;
  pids?: number;
  /** Percent of one core (100 = one core). */
  cpuPercent?: number;
}

export interface CgroupUsage {
  /** CPU time used since the group was made, in nanoseconds. */
  cpuNanos: number;
  /** Memory in use, page cache that can be dropped left out. */
  memoryBytes: number;
}

/** One server's group for one run: made before its process starts, removed after it ends. */
export interface ServerCgroup {
  /** Moves a process in (its children follow); call before it starts the real program. */
  add(pid: number): Promise<void>;
  usage(): Promise<CgroupUsage>;
  /** How many processes the kernel killed for going over the memory limit. */
  oomKills(): Promise<number>;
  /** Kills every process inside, including those that left the process group. */
  killAll(): Promise<void>;
  /** Kills what is left and removes the group. */
  remove(): Promise<void>;
}

export interface CgroupDriver {
  readonly version: 1 | 2;
  /** Makes (or re-makes, empty) the group `name` with these limits. */
  create(name: string, limits: ResolvedLimits): Promise<ServerCgroup>;
  /**
   * Empties and removes every group named `<prefix>-…` (what a daemon that
   * died left: its servers are not running any more); answers how many.
   */
  removeLeftovers(prefix: string): Promise<number>;
}

/** The names under `parents` that start with `<prefix>-`. */
async function namesWithPrefix(parents: string[], prefix: string): Promise<string[]> {
  const names = new Set<string>();
  for (const parent of parents) {
    const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const entry of entries)
      if (entry.isDirectory() && entry.name.startsWith(`${prefix}-`)) names.add(entry.name);
  }
  return [...names];
}

const cfsPeriodMicros = 100_000;

async function writeValue(dir: string, file: string, value: string | number): Promise<void> {
  await fs.writeFile(path.join(dir, file), String(value));
}

async function readText(dir: string, file: string): Promise<string> {
  return fs.readFile(path.join(dir, file), "utf8").catch(() => "");
}

/** `key value` lines (memory.stat, cpu.stat, memory.events, memory.oom_control). */
function keyed(text: string, key: string): number {
  const match = new RegExp(`^${key} (\\d+)$`, "m").exec(text);
  return match ? Number(match[1]) : 0;
}

async function pidsOf(dir: string): Promise<number[]> {
  return (await readText(dir, "cgroup.procs")).split("\n").filter(Boolean).map(Number);
}

/** SIGKILL to every process listed, until none is left (a pids limit keeps a fork bomb finite). */
async function killListed(dir: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = await pidsOf(dir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function removeDir(dir: string): Promise<void> {
  // Killed processes leave the group only once the kernel has reaped them, which can take
  // seconds on a loaded host after a fork bomb: keep trying for up to ~15 s, waiting longer each time.
  for (let attempt = 0, wait = 20; ; attempt++, wait = Math.min(wait * 2, 500)) {
    try {
      await fs.rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY" || attempt >= 40) throw error;
      await killListed(dir);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** cgroup v1: `mounts` maps each controller (memory, pids, cpu, cpuacct, freezer) to its group's parent folder. */
export class CgroupV1Driver implements CgroupDriver {
  readonly version = 1;

  constructor(private readonly parents: Partial<Record<V1Controller, string>>) {}

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
      // No swap beyond the limit (absent when the kernel does not account swap).
      await writeValue(dirs.memory, "memory.memsw.limit_in_bytes", limits.memoryBytes).catch(() => {});
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

/** cgroup v2: groups are made under `parent`, whose subtree_control must allow memory, pids and cpu. */
export class CgroupV2Driver implements CgroupDriver {
  readonly version = 2;

  constructor(private readonly parent: string) {}

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
      await writeValue(dir, "memory.swap.max", 0).catch(() => {});
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

interface MountEntry {
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

/** The cgroup mounts in a /proc/<pid>/mountinfo text. */
export function parseMountinfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!right) continue;
    const mountPoint = left.split(" ")[4];
    const [fsType, , superOptions = ""] = right.split(" ");
    if (fsType === "cgroup" || fsType === "cgroup2") {
      entries.push({ mountPoint, fsType, superOptions: superOptions.split(",") });
    }
  }
  return entries;
}

/** The process's own group per hierarchy, from /proc/<pid>/cgroup ("0" is the v2 one). */
export function parseProcCgroup(text: string): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    if (match[1] === "0") own.set("", match[3]);
    for (const controller of match[2].split(",")) if (controller) own.set(controller, match[3]);
  }
  return own;
}

/**
 * The driver this host supports, with the node's groups nested under the
 * daemon's own (so they count toward whatever limits the daemon itself is
 * under). v1 wins when the memory controller is bound there.
 */
export async function detectCgroups(
  mountinfo = "/proc/self/mountinfo",
  procCgroup = "/proc/self/cgroup",
): Promise<{ driver?: CgroupDriver; reason?: string }> {
  const mounts = parseMountinfo(await fs.readFile(mountinfo, "utf8").catch(() => ""));
  const own = parseProcCgroup(await fs.readFile(procCgroup, "utf8").catch(() => ""));
  const v1: Partial<Record<V1Controller, string>> = {};
  for (const mount of mounts.filter((m) => m.fsType === "cgroup")) {
    for (const controller of v1Controllers) {
      if (mount.superOptions.includes(controller)) {
        v1[controller] = path.join(mount.mountPoint, own.get(controller) ?? "/");
      }
    }
  }
  if (v1.memory && v1.pids) {
    const writable = await fs.access(v1.memory, fs.constants.W_OK).then(
      () => true,
      () => false,
    );
    if (!writable) return { reason: "the node may not make cgroups (it needs root)" };
    return { driver: new CgroupV1Driver(v1) };
  }
  const unified = mounts.find((m) => m.fsType === "cgroup2");
  if (unified) {
    const parent = path.join(unified.mountPoint, own.get("") ?? "/");
    const controllers = (await readText(parent, "cgroup.controllers")).split(/\s+/);
    if (!controllers.includes("memory") || !controllers.includes("pids")) {
      return { reason: "the memory and pids controllers are not delegated to the node's cgroup" };
    }
    const ready = await prepareV2Parent(parent);
    return ready === true ? { driver: new CgroupV2Driver(parent) } : { reason: ready };
  }
  return { reason: "no cgroup hierarchy with the memory and pids controllers is mounted" };
}

/**
 * v2's "no internal processes" rule: a group that hands controllers to its
 * children may hold no process itself, so the daemon moves itself into a
 * leaf of its group first, then enables the controllers for the servers.
 */
export async function prepareV2Parent(parent: string, pid = process.pid): Promise<true | string> {
  const enable = () => writeValue(parent, "cgroup.subtree_control", "+memory +pids +cpu");
  try {
    await enable();
    return true;
  } catch {}
  try {
    const leaf = path.join(parent, "outpost-daemon");
    await fs.mkdir(leaf, { recursive: true });
    await writeValue(leaf, "cgroup.procs", pid);
    await enable();
    return true;
  } catch (error) {
    return `cannot enable the memory, pids and cpu controllers (is the node's cgroup delegated?): ${(error as Error).message}`;
  }
}
