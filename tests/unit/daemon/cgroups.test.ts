import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CgroupV1Driver,
  CgroupV2Driver,
  hostSwapKb,
  parseMountinfo,
  parseProcCgroup,
  prepareV2Parent,
  SwapGuard,
} from "../../../server/daemon/runtime/cgroups/index.ts";
import { ApiError, errorText } from "../../../server/errors.ts";

// The kernel's files cannot be had without a kernel that mounts them; here a plain folder
// stands in for the v2 tree (this CI host boots cgroup v1), checking what the driver writes and reads.
describe("cgroup drivers on a stand-in tree", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-cgroups-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("v2 writes memory.max, pids.max and cpu.max, and reads usage and OOM kills", async () => {
    const group = await new CgroupV2Driver(dir).create("outpost-x-s1", {
      memoryBytes: 64 * 1024 * 1024,
      pids: 32,
      cpuPercent: 50,
    });
    const at = (f: string) => path.join(dir, "outpost-x-s1", f);
    expect(fs.readFileSync(at("memory.max"), "utf8")).toBe(String(64 * 1024 * 1024));
    expect(fs.readFileSync(at("memory.swap.max"), "utf8")).toBe("0");
    expect(fs.readFileSync(at("pids.max"), "utf8")).toBe("32");
    expect(fs.readFileSync(at("cpu.max"), "utf8")).toBe("50000 100000");
    fs.writeFileSync(at("memory.current"), "5000\n");
    fs.writeFileSync(at("memory.stat"), "anon 3000\ninactive_file 1000\n");
    fs.writeFileSync(at("cpu.stat"), "usage_usec 2500\nuser_usec 2000\n");
    fs.writeFileSync(at("memory.events"), "low 0\noom 1\noom_kill 1\n");
    expect(await group.usage()).toEqual({ cpuNanos: 2_500_000, memoryBytes: 4000 });
    expect(await group.oomKills()).toBe(1);
    await group.add(12345);
    expect(fs.readFileSync(at("cgroup.procs"), "utf8")).toBe("12345");
  });

  it("v2 leaves out what is not limited", async () => {
    await new CgroupV2Driver(dir).create("g", {});
    expect(fs.readdirSync(path.join(dir, "g"))).toEqual([]);
  });

  it("v2 moves the daemon into a leaf when its own group may not hand out controllers", async () => {
    // A stand-in refusing the first write: subtree_control as a folder cannot be written.
    fs.mkdirSync(path.join(dir, "cgroup.subtree_control"));
    const answer = await prepareV2Parent(dir, 4242);
    expect(answer).not.toBe(true);
    expect(fs.readFileSync(path.join(dir, "outpost-daemon", "cgroup.procs"), "utf8")).toBe("4242");
  });

  it("v1 removes the groups of its prefix a previous run left, and only those", async () => {
    const parents = { memory: path.join(dir, "memory"), pids: path.join(dir, "pids") };
    const driver = new CgroupV1Driver(parents);
    await driver.create("outpost-abc-s1", {});
    await driver.create("outpost-abc-s2", {});
    await driver.create("outpost-other-s1", {});
    expect(await driver.removeLeftovers("outpost-abc")).toBe(2);
    for (const parent of Object.values(parents)) expect(fs.readdirSync(parent)).toEqual(["outpost-other-s1"]);
  });

  it("v1 writes each controller's files in its own hierarchy", async () => {
    const parents = {
      memory: path.join(dir, "memory"),
      pids: path.join(dir, "pids"),
      cpu: path.join(dir, "cpu"),
      cpuacct: path.join(dir, "cpuacct"),
    };
    const group = await new CgroupV1Driver(parents).create("g", {
      memoryBytes: 1024,
      pids: 8,
      cpuPercent: 20,
    });
    expect(fs.readFileSync(path.join(dir, "memory/g/memory.limit_in_bytes"), "utf8")).toBe("1024");
    expect(fs.readFileSync(path.join(dir, "memory/g/memory.memsw.limit_in_bytes"), "utf8")).toBe("1024");
    expect(fs.readFileSync(path.join(dir, "pids/g/pids.max"), "utf8")).toBe("8");
    expect(fs.readFileSync(path.join(dir, "cpu/g/cpu.cfs_quota_us"), "utf8")).toBe("20000");
    fs.writeFileSync(path.join(dir, "cpuacct/g/cpuacct.usage"), "777");
    fs.writeFileSync(path.join(dir, "memory/g/memory.usage_in_bytes"), "900");
    fs.writeFileSync(path.join(dir, "memory/g/memory.stat"), "cache 10\ntotal_inactive_file 100\n");
    fs.writeFileSync(
      path.join(dir, "memory/g/memory.oom_control"),
      "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n",
    );
    expect(await group.usage()).toEqual({ cpuNanos: 777, memoryBytes: 800 });
    expect(await group.oomKills()).toBe(2);
  });

  it("v2 writes swap beside the memory limit, CPU threads and the IO weight where the parent hands them out", async () => {
    fs.writeFileSync(path.join(dir, "cgroup.subtree_control"), "cpuset cpu io memory pids\n");
    const driver = new CgroupV2Driver(dir);
    await driver.create("g", { memoryBytes: 1024, swapBytes: 4096, cpus: "0-1,3", ioWeight: 800 });
    const at = (f: string) => fs.readFileSync(path.join(dir, "g", f), "utf8");
    expect(at("memory.swap.max")).toBe("4096");
    expect(at("cpuset.cpus")).toBe("0-1,3");
    // Docker's 800 against its unweighted 500 = 160 against v2's unweighted 100.
    expect(at("io.weight")).toBe("default 160");
    await driver.create("h", { memoryBytes: 1024, swapBytes: "max" });
    expect(fs.readFileSync(path.join(dir, "h", "memory.swap.max"), "utf8")).toBe("max");
    expect(fs.readdirSync(path.join(dir, "h")).sort()).toEqual(["memory.max", "memory.swap.max"]);
  });

  it("v2 refuses CPU threads where the parent does not hand out cpuset, and goes on without an IO weight, told once", async () => {
    fs.writeFileSync(path.join(dir, "cgroup.subtree_control"), "cpu memory pids\n");
    const warned: string[] = [];
    const guard = new SwapGuard({}, { warn: (m) => warned.push(m), info: () => {} });
    const driver = new CgroupV2Driver(dir, guard);
    const refusal = await driver.create("g", { memoryBytes: 1024, cpus: "1" }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe("ErrCpuThreadsUnavailable");
    const text = errorText(refusal);
    expect(text).toContain("CPU threads 1");
    expect(text).toContain(
      `the cpuset controller is not enabled in ${path.join(dir, "cgroup.subtree_control")}`,
    );
    expect(text).toMatch(/\+cpuset/);
    expect(fs.existsSync(path.join(dir, "g"))).toBe(false);
    for (const name of ["h", "i"]) {
      await driver.create(name, { pids: 8, ioWeight: 100 });
      expect(fs.readdirSync(path.join(dir, name))).toEqual(["pids.max"]);
    }
    expect(warned).toEqual([
      `servers run without their IO weight: the io controller is not enabled in ${path.join(dir, "cgroup.subtree_control")}`,
    ]);
  });

  it("v1 adds swap to memsw, and makes cpuset and blkio groups only for CPU threads and an IO weight", async () => {
    const parents = {
      memory: path.join(dir, "memory"),
      pids: path.join(dir, "pids"),
      cpuset: path.join(dir, "cpuset"),
      blkio: path.join(dir, "blkio"),
    };
    for (const parent of Object.values(parents)) fs.mkdirSync(parent);
    fs.writeFileSync(path.join(parents.cpuset, "cpuset.mems"), "0-1\n");
    const driver = new CgroupV1Driver(parents);
    await driver.create("g", { memoryBytes: 1024, swapBytes: 512, cpus: "1", ioWeight: 800 });
    const at = (f: string) => fs.readFileSync(path.join(dir, f), "utf8");
    expect(at("memory/g/memory.memsw.limit_in_bytes")).toBe("1536");
    expect(at("cpuset/g/cpuset.mems")).toBe("0-1");
    expect(at("cpuset/g/cpuset.cpus")).toBe("1");
    expect(at("blkio/g/blkio.weight")).toBe("800");
    await driver.create("h", { memoryBytes: 1024, swapBytes: "max" });
    expect(at("memory/h/memory.memsw.limit_in_bytes")).toBe("-1");
    expect(fs.existsSync(path.join(dir, "cpuset/h"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "blkio/h"))).toBe(false);
    // Leftovers are found in every hierarchy, cpuset and blkio too (empty ones: a stand-in folder with files stays).
    fs.mkdirSync(path.join(parents.cpuset, "x-1"));
    fs.mkdirSync(path.join(parents.blkio, "x-2"));
    expect(await driver.removeLeftovers("x")).toBe(2);
    expect(fs.readdirSync(parents.cpuset)).toEqual(["cpuset.mems", "g"]);
    expect(fs.readdirSync(parents.blkio)).toEqual(["g"]);
  });

  it("v1 without a cpuset hierarchy refuses CPU threads; without blkio it goes on, told once", async () => {
    const warned: string[] = [];
    const guard = new SwapGuard({}, { warn: (m) => warned.push(m), info: () => {} });
    const parents = { memory: path.join(dir, "memory"), pids: path.join(dir, "pids") };
    const driver = new CgroupV1Driver(parents, guard);
    const refusal = await driver.create("g", { pids: 8, cpus: "0" }).catch((e: unknown) => e);
    expect((refusal as ApiError).code).toBe("ErrCpuThreadsUnavailable");
    expect(errorText(refusal)).toContain("no cgroup v1 hierarchy has the cpuset controller");
    expect(fs.existsSync(path.join(dir, "pids/g"))).toBe(false);
    await driver.create("h", { pids: 8, ioWeight: 300 });
    await driver.create("i", { pids: 8, ioWeight: 300 });
    expect(fs.readFileSync(path.join(dir, "pids/h/pids.max"), "utf8")).toBe("8");
    expect(warned).toEqual([
      "servers run without their IO weight: no cgroup v1 hierarchy has the blkio controller",
    ]);
  });

  it("finds v1 mounts with cpu and cpuacct apart or together, and the process's own groups", () => {
    const mountinfo = [
      "30 25 0:26 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory",
      "31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct",
      "32 25 0:28 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw,nsdelegate",
      "33 25 0:29 / /proc rw - proc proc rw",
    ].join("\n");
    const mounts = parseMountinfo(mountinfo);
    expect(mounts.map((m) => [m.mountPoint, m.fsType])).toEqual([
      ["/sys/fs/cgroup/memory", "cgroup"],
      ["/sys/fs/cgroup/cpu,cpuacct", "cgroup"],
      ["/sys/fs/cgroup/unified", "cgroup2"],
    ]);
    expect(mounts[1].superOptions).toEqual(expect.arrayContaining(["cpu", "cpuacct"]));
    const own = parseProcCgroup("5:memory:/user/shell\n3:cpu,cpuacct:/\n0::/init.scope\n");
    expect(own.get("memory")).toBe("/user/shell");
    expect(own.get("cpuacct")).toBe("/");
    expect(own.get("")).toBe("/init.scope");
  });
});

// A swap limit the kernel refuses (no swap accounting: the file is absent) used to pass with a log line.
// Without such a kernel at hand, the stand-in makes a real refusal of its own: the group's folder
// lies so deep that the swap file's path passes PATH_MAX (4096 bytes) while the memory limit's
// still fits, so that write alone fails (ENAMETOOLONG). Whether the host has swap comes from a
// meminfo file of the test's own.
describe("a swap limit the kernel refuses", () => {
  let base: string;
  let meminfo: string;
  let log: { warn: string[]; info: string[] };
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-cgroups-"));
    meminfo = path.join(base, "meminfo");
    log = { warn: [], info: [] };
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** A folder below `base` whose path is exactly `length` characters long. */
  function folderOfLength(length: number): string {
    let dir = base;
    while (dir.length < length) {
      const room = length - dir.length - 1;
      // Never leave a remainder too short for a name of its own.
      const part = room > 255 ? Math.min(200, room - 2) : room;
      dir = path.join(dir, "d".repeat(part));
    }
    fs.mkdirSync(dir, { recursive: true });
    expect(dir.length).toBe(length);
    return dir;
  }

  /** The host's swap as /proc/meminfo says it, and the node's guard reading it. */
  function host(swapKb: number, allowUnlimited = false): SwapGuard {
    fs.writeFileSync(
      meminfo,
      `MemTotal:       24576000 kB\nSwapCached:            0 kB\nSwapTotal:       ${swapKb} kB\nSwapFree:        ${swapKb} kB\n`,
    );
    return new SwapGuard(
      { allowUnlimited, meminfo },
      { warn: (m) => log.warn.push(m), info: (m) => log.info.push(m) },
    );
  }

  // "<parent>/g" is 4082 long: + "/memory.max" fits in 4095, + "/memory.swap.max" does not.
  const v2 = (guard: SwapGuard) => {
    const parent = folderOfLength(4080);
    return { parent, driver: new CgroupV2Driver(parent, guard) };
  };
  // "<memory>/g" is 4070 long: + "/memory.limit_in_bytes" fits, + "/memory.memsw.limit_in_bytes" does not.
  const v1 = (guard: SwapGuard) => {
    const parents = { memory: folderOfLength(4068), pids: path.join(base, "pids") };
    return { parent: parents.memory, driver: new CgroupV1Driver(parents, guard) };
  };

  for (const [version, setup, file, memoryFile] of [
    ["v2", v2, "memory.swap.max", "memory.max"],
    ["v1", v1, "memory.memsw.limit_in_bytes", "memory.limit_in_bytes"],
  ] as const) {
    it(`${version}, host with swap: refuses the group, saying why and how to fix it`, async () => {
      const { parent, driver } = setup(host(2_097_148));
      const refusal = await driver.create("g", { memoryBytes: 1024, pids: 8 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(ApiError);
      const error = refusal as ApiError;
      expect(error.status).toBe(409);
      expect(error.code).toBe("ErrSwapNotLimited");
      const text = errorText(error);
      expect(text).toContain(path.join(parent, "g", file));
      expect(text).toContain("ENAMETOOLONG");
      expect(text).toMatch(/swapaccount=1/);
      expect(text).toMatch(/swapoff/);
      expect(text).toMatch(/OUTPOST_ALLOW_UNLIMITED_SWAP=1/);
      expect(log).toEqual({ warn: [], info: [] });
    });

    it(`${version}, host without swap: makes the group and tells the log once, at info`, async () => {
      const { parent, driver } = setup(host(0));
      for (const name of ["g", "h"]) {
        await driver.create(name, { memoryBytes: 1024, pids: 8 });
        expect(fs.readFileSync(path.join(parent, name, memoryFile), "utf8")).toBe("1024");
      }
      expect(log.warn).toEqual([]);
      expect(log.info).toHaveLength(1);
      expect(log.info[0]).toContain(path.join(parent, "g", file));
      expect(log.info[0]).toContain("ENAMETOOLONG");
    });

    it(`${version}, host with swap and OUTPOST_ALLOW_UNLIMITED_SWAP=1: makes the group and warns once`, async () => {
      const { parent, driver } = setup(host(2_097_148, true));
      for (const name of ["g", "h"]) {
        await driver.create(name, { memoryBytes: 1024, pids: 8 });
        expect(fs.readFileSync(path.join(parent, name, memoryFile), "utf8")).toBe("1024");
      }
      expect(log.info).toEqual([]);
      expect(log.warn).toHaveLength(1);
      expect(log.warn[0]).toContain("OUTPOST_ALLOW_UNLIMITED_SWAP=1");
      expect(log.warn[0]).toContain(path.join(parent, "g", file));
    });
  }

  it("counts a host whose swap cannot be read as one with swap", async () => {
    const guard = new SwapGuard({ meminfo: path.join(base, "absent") });
    expect(await hostSwapKb(path.join(base, "absent"))).toBeUndefined();
    await expect(guard.refused("memory.swap.max", new Error("ENOENT"))).rejects.toThrow(ApiError);
  });

  it("reads the real host's swap", async () => {
    expect(await hostSwapKb()).toBeGreaterThanOrEqual(0);
  });

  it("stays quiet when the kernel takes the swap limit", async () => {
    await new CgroupV2Driver(base, host(2_097_148)).create("g", { memoryBytes: 1024 });
    expect(fs.readFileSync(path.join(base, "g", "memory.swap.max"), "utf8")).toBe("0");
    expect(log).toEqual({ warn: [], info: [] });
  });
});
