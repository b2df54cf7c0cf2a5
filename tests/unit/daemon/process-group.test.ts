import fs from "node:fs";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { ProcessGroup } from "../../../server/daemon/runtime/process-group.ts";
import { TreeStats } from "../../../server/daemon/runtime/tree-stats.ts";
import { waitUntil } from "../../support/poll.ts";

/** Running, as opposed to gone or a zombie (this machine's PID 1 does not reap orphans). */
const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};

const spec = (script: string) => ({
  argv: ["sh", "-c", script],
  cwd: os.tmpdir(),
  env: { PATH: process.env.PATH ?? "" },
});

describe("ProcessGroup", () => {
  it("passes input lines to the process and collects its output", async () => {
    let out = "";
    const group = new ProcessGroup(spec('read line; echo "got $line"; echo oops >&2'), (d) => (out += d));
    expect(group.writeLine("hello")).toBe(true);
    expect(await group.exited).toEqual({ code: 0, signal: null });
    expect(out).toContain("got hello");
    expect(out).toContain("oops");
    expect(group.running).toBe(false);
    expect(group.writeLine("late")).toBe(false);
  });

  it("ends the whole process tree with one signal to the group", async () => {
    const pidFile = `${os.tmpdir()}/outpost-grandchild-${process.pid}-${Date.now()}`;
    const group = new ProcessGroup(spec(`sleep 60 & echo $! > ${pidFile}; wait`), () => {});
    await waitUntil(
      async () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      20,
    );
    const grandchild = Number(fs.readFileSync(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);
    group.signal("SIGKILL");
    expect((await group.exited).signal).toBe("SIGKILL");
    // The group's signal reaches the grandchild too: it is gone (a zombie counts as gone) soon after.
    await waitUntil(async () => !alive(grandchild), 5000, 10);
    fs.rmSync(pidFile);
  });

  it("reports a command that cannot start as exit 127", async () => {
    let out = "";
    const group = new ProcessGroup(
      { argv: ["/no/such/binary"], cwd: os.tmpdir(), env: {} },
      (d) => (out += d),
    );
    expect((await group.exited).code).toBe(127);
    expect(out).toContain("could not start");
  });

  it("samples CPU and memory of the process tree", async () => {
    const group = new ProcessGroup(
      spec(`${process.execPath} -e "const end=Date.now()+1500; while(Date.now()<end){}"`),
      () => {},
    );
    const stats = new TreeStats(group.pid!);
    await stats.sample();
    // CPU is a share of the time between two samples: the time between them is the measurement.
    await new Promise((r) => setTimeout(r, 700));
    const sample = await stats.sample();
    // A busy loop: a whole core on an idle machine, much less on a loaded one (seen at 15 % with
    // the suite and other work sharing two cores); an idle process samples at 0.
    expect(sample.cpu).toBeGreaterThan(5);
    expect(sample.memory).toBeGreaterThan(10 * 1024 * 1024);
    group.signal("SIGKILL");
    await group.exited;
  });
});
