import fs from "node:fs/promises";
import path from "node:path";
import type { CgroupDriver } from "./driver.ts";
import { readText, writeValue } from "./files.ts";
import { SwapGuard } from "./swap.ts";
import { CgroupV1Driver, type V1Controller, v1Controllers } from "./v1.ts";
import { CgroupV2Driver } from "./v2.ts";

/**
 * Which cgroup interface this host offers the node, from /proc/self/mountinfo and
 * /proc/self/cgroup, and, for v2, getting the daemon's own group ready to hand out controllers.
 */

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
  /** What to do where the kernel refuses a swap limit (one guard for the node's run: it tells the log once). */
  swap: SwapGuard = new SwapGuard(),
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
    return { driver: new CgroupV1Driver(v1, swap) };
  }
  const unified = mounts.find((m) => m.fsType === "cgroup2");
  if (unified) {
    const parent = path.join(unified.mountPoint, own.get("") ?? "/");
    const controllers = (await readText(parent, "cgroup.controllers")).split(/\s+/);
    if (!controllers.includes("memory") || !controllers.includes("pids")) {
      return { reason: "the memory and pids controllers are not delegated to the node's cgroup" };
    }
    const ready = await prepareV2Parent(parent);
    return ready === true ? { driver: new CgroupV2Driver(parent, swap) } : { reason: ready };
  }
  return { reason: "no cgroup hierarchy with the memory and pids controllers is mounted" };
}

/**
 * v2's "no internal processes" rule: a group that hands controllers to its
 * children may hold no process itself, so the daemon moves itself into a
 * leaf of its group first, then enables the controllers for the servers.
 */
export async function prepareV2Parent(parent: string, pid = process.pid): Promise<true | string> {
  const enable = async () => {
    await writeValue(parent, "cgroup.subtree_control", "+memory +pids +cpu");
    // Each on its own, where the host delegates it: only servers with CPU threads or an IO weight need them.
    for (const optional of ["+cpuset", "+io"]) {
      await writeValue(parent, "cgroup.subtree_control", optional).catch(() => {});
    }
    return true as const;
  };
  try {
    return await enable();
  } catch {}
  try {
    const leaf = path.join(parent, "outpost-daemon");
    await fs.mkdir(leaf, { recursive: true });
    await writeValue(leaf, "cgroup.procs", pid);
    return await enable();
  } catch (error) {
    return `cannot enable the memory, pids and cpu controllers (is the node's cgroup delegated?): ${(error as Error).message}`;
  }
}
