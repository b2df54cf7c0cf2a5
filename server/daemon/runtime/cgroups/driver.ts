/**
 * Resource limits through cgroups, behind one interface with a driver for
 * each kernel interface: v1 (one hierarchy per controller, v1.ts) and v2 (the
 * unified tree of current distributions, v2.ts). The node picks one at start
 * (detect.ts); a host with neither runs servers without limits and leaves
 * `limits` out of its features.
 */

/** Limits as the kernel takes them; undefined = no limit. */
export interface ResolvedLimits {
  memoryBytes?: number;
  /** Swap beside memoryBytes, in bytes, or "max" for as much as the host has; undefined = none. */
  swapBytes?: number | "max";
  pids?: number;
  /** Percent of one core (100 = one core). */
  cpuPercent?: number;
  /** Share of disk time on Docker's scale, 10–1000 (500 = an unweighted group's); undefined = the kernel's default. */
  ioWeight?: number;
  /** The CPUs the group may run on, a cpuset list ("0-1,3"); undefined = all. */
  cpus?: string;
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

/** Where a driver reports what it went on without: warn for what needs the operator, info for what is harmless. */
export interface CgroupLog {
  warn(message: string): void;
  info(message: string): void;
}
