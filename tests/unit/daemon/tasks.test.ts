import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskRunView } from "../../../server/contract/node/task-wire.ts";
import { DaemonEngine } from "../../../server/daemon/engine.ts";
import { loadRe2 } from "../../../server/daemon/re2.ts";
import {
  ConsoleMatcher,
  compileConsolePattern,
  consoleLines,
} from "../../../server/daemon/tasks/console-match.ts";
import { productVersion } from "../../../server/version.ts";
import { echoDefinition } from "../../support/echo-template.ts";
import { waitUntil } from "../../support/poll.ts";

describe("console match", () => {
  // Patterns compile synchronously once re2js is loaded (server/daemon/re2.ts).
  beforeAll(async () => {
    // Not beforeAll(loadRe2): a hook's result that is a function is taken for its teardown.
    await loadRe2();
  });

  it("finds a matching line of a chunk", () => {
    const matcher = new ConsoleMatcher("joined the game$");
    expect(matcher.test(consoleLines("a\r\nSteve joined the game\nb"))).toBe(true);
    expect(matcher.test(consoleLines("Steve left the game\n"))).toBe(false);
  });

  // V8's engine takes 2^40 steps for this pattern on this line (the old matcher needed a watchdog
  // to cut it); RE2 answers in steps linear in the line.
  it("runs a pattern that backtracks without end elsewhere to its answer", () => {
    const matcher = new ConsoleMatcher("^(a+)+$");
    expect(matcher.test(consoleLines(`${"a".repeat(40)}!`))).toBe(false);
    expect(matcher.test(consoleLines(`${"a".repeat(5000)}!\n${"a".repeat(900)}`))).toBe(true);
  });

  it("pauses a pattern for a minute when told to, then tries it again", () => {
    let now = 1_000_000;
    const matcher = new ConsoleMatcher("^a+$", () => now);
    matcher.pause();
    expect(matcher.test(["aaa"])).toBe(false);
    now += 61_000;
    expect(matcher.test(["aaa"])).toBe(true);
  });

  it("refuses a pattern RE2 cannot run in linear time", () => {
    expect(() => compileConsolePattern("(a)\\1")).toThrow();
    expect(() => compileConsolePattern("joined(?= the game)")).toThrow();
  });

  // Linear in the line times the program: this one compiles to 2,082 instructions and, tried on
  // a chunk's 200 lines in one call, would hold the node's event loop about 18 s.
  it("refuses a pattern whose program is too large, and stops at the chunk's deadline between lines", () => {
    expect(() => compileConsolePattern("(x|[a-b]{1,50}){1,20}$")).toThrow(
      /2082 instructions, more than 1000/,
    );
    const matcher = new ConsoleMatcher("match-me");
    expect(matcher.test(["no", "match-me"])).toBe(true);
    // A budget already spent: the first line is tried, the rest wait for the next chunk.
    expect(matcher.test(["no", "match-me"], 0)).toBe(false);
  });
});

describe("task runs on a node", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-task-runs-"));
  let engine: DaemonEngine;
  const id = "7a5cf001";
  const finished = async (taskId: string): Promise<TaskRunView[]> =>
    (await engine.taskOps.runs(id, taskId)).filter((r) => r.finished !== null);

  beforeAll(async () => {
    engine = new DaemonEngine({ dataDir: dir, version: productVersion, tasks: { runLimitMs: 500 } });
    await engine.servers.create(id, echoDefinition());
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stops a run that passes the time limit", async () => {
    const task = await engine.taskOps.create(id, {
      name: "Slow",
      operations: [{ type: "sleep", duration: "10s" }],
    });
    await engine.taskOps.run(id, task.id);
    // The sleep is 10 s: a run that finishes within this wait was cut by the limit, as its message says.
    await waitUntil(async () => (await finished(task.id)).length === 1, 5000, 20);
    expect((await finished(task.id))[0]).toMatchObject({
      success: false,
      message: "operation 1 (sleep): took longer than 1 s",
    });
    // Its lines, through the node's table, in the English they always had.
    expect((await finished(task.id))[0].output).toBe(
      "[TASK] operation 1: sleep\n[TASK] Sleeping for 10s\n[TASK] operation 1 (sleep): took longer than 1 s\n",
    );
    await engine.taskOps.delete(id, task.id);
  });

  it("skips a run past the server's limit in skip mode, and waits for a slot in wait mode", async () => {
    const slow = await engine.taskOps.create(id, {
      name: "Slow",
      operations: [{ type: "sleep", duration: "300ms" }],
    });
    const quick = await engine.taskOps.create(id, { name: "Quick", operations: [] });
    await engine.taskOps.setSettings(id, { concurrentLimit: 1, limitMode: "skip", timezone: "UTC" });
    await engine.taskOps.run(id, slow.id);
    const skipped = await engine.taskOps.run(id, quick.id);
    expect(skipped).toMatchObject({ success: false, message: expect.stringMatching(/^skipped/) });

    await waitUntil(async () => (await finished(slow.id)).length === 1, 5000, 20);
    await engine.taskOps.setSettings(id, { concurrentLimit: 1, limitMode: "wait", timezone: "UTC" });
    await engine.taskOps.run(id, slow.id);
    const waiting = await engine.taskOps.run(id, quick.id);
    expect(waiting.finished).toBeNull();
    await waitUntil(async () => (await finished(quick.id)).length === 2, 5000, 20);
    const [slowRun] = await finished(slow.id);
    const [quickRun] = await finished(quick.id);
    expect(quickRun.success).toBe(true);
    // It started only once the slow one had ended.
    expect(Date.parse(quickRun.started)).toBeGreaterThanOrEqual(Date.parse(slowRun.finished ?? ""));
  });

  it("keeps the last 20 runs of a task", async () => {
    const task = await engine.taskOps.create(id, { name: "Many", operations: [] });
    await engine.taskOps.setSettings(id, { concurrentLimit: 5 });
    for (let n = 0; n < 25; n++) {
      await engine.taskOps.run(id, task.id);
      await waitUntil(async () => (await engine.taskOps.runs(id, task.id))[0].finished !== null, 2000, 5);
    }
    const runs = await engine.taskOps.runs(id, task.id);
    expect(runs).toHaveLength(20);
    expect(runs[0].id).toBeGreaterThan(runs[19].id);
  });

  it("runs an installed task once the install steps succeed, and a stopped task when the server stops", async () => {
    const other = "7a5cf002";
    await engine.servers.create(
      other,
      echoDefinition({ install: [{ type: "writefile", target: "state.txt", text: "installed" }] }),
    );
    const installed = await engine.taskOps.create(other, {
      name: "After install",
      event: "installed",
      operations: [{ type: "writefile", target: "after.txt", text: "after install" }],
    });
    const stopped = await engine.taskOps.create(other, {
      name: "After stop",
      event: "stopped",
      operations: [],
    });
    await engine.serverOps.action(other, "install", true);
    await waitUntil(
      async () => (await engine.taskOps.runs(other, installed.id))[0]?.success === true,
      5000,
      20,
    );
    expect(fs.readFileSync(path.join(dir, "servers", other, "after.txt"), "utf8")).toBe("after install");
    expect(await engine.taskOps.runs(other, stopped.id)).toHaveLength(0);
    await engine.serverOps.action(other, "start", true);
    await engine.serverOps.action(other, "stop", true);
    await waitUntil(
      async () => (await engine.taskOps.runs(other, stopped.id))[0]?.success === true,
      5000,
      20,
    );
  });

  it("refuses a 101st task naming the field", async () => {
    const { tasks } = await engine.taskOps.list(id);
    for (let n = tasks.length; n < 100; n++)
      await engine.taskOps.create(id, { name: `t${n}`, operations: [] });
    await expect(engine.taskOps.create(id, { name: "one too many", operations: [] })).rejects.toMatchObject({
      status: 400,
      code: "ErrTooManyTasks",
      metadata: { field: "tasks" },
    });
  });
});

// The audit: 100 console-match tasks on one server, each under its own 50 ms cut-off, held the node
// 3.5 s for every chat line. Now all of a server's patterns share one budget a chunk, and the next
// chunk starts where the last one ran out.
describe("console patterns of one server share one budget a chunk", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-task-budget-"));
  let engine: DaemonEngine;
  const id = "7a5cb0d9";

  beforeAll(async () => {
    // No time at all: the budget is spent by the first pattern of each chunk, whatever this machine's speed.
    engine = new DaemonEngine({
      dataDir: dir,
      version: productVersion,
      tasks: { runLimitMs: 60_000, consoleBudgetMs: 0 },
    });
    await engine.servers.create(id, echoDefinition());
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("tries only some patterns on a chunk that uses up the budget, and every one over the next chunks", async () => {
    const made: string[] = [];
    for (let i = 0; i < 40; i++) {
      // Each scans the whole chunk: 200 lines of 1000 characters, its match on the last.
      const task = await engine.taskOps.create(id, {
        name: `watch ${i}`,
        consoleMatch: "END$",
        operations: [{ type: "writefile", target: `seen-${i}.txt`, text: "1" }],
      });
      made.push(task.id);
    }
    const chunk = `${`${"x".repeat(999)}\n`.repeat(199)}${"x".repeat(997)}END`;
    const tasks = await engine.taskOps.of(id);
    const triggered = async () => {
      let count = 0;
      for (const taskId of made) if ((await engine.taskOps.runs(id, taskId)).length > 0) count++;
      return count;
    };
    tasks.matchConsole(chunk);
    const afterOne = await triggered();
    expect(afterOne).toBe(1);
    // Each pattern fires at most once a second, so later chunks reach the ones not yet tried.
    for (let i = 0; i < 200 && (await triggered()) < made.length; i++) tasks.matchConsole(chunk);
    expect(await triggered()).toBe(made.length);
  });
});

// Issue 35, P6: when a task's author lost a right it needs, the panel disabled the task, but its
// runs under way or waiting went on with the old rights (up to 100 queued, an hour each).
describe("a task disabled or removed stops its runs", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-task-stop-"));
  let engine: DaemonEngine;
  const id = "7a5c5701";
  const finished = async (taskId: string): Promise<TaskRunView[]> =>
    (await engine.taskOps.runs(id, taskId)).filter((r) => r.finished !== null);

  beforeAll(async () => {
    engine = new DaemonEngine({ dataDir: dir, version: productVersion, tasks: { runLimitMs: 600_000 } });
    await engine.servers.create(id, echoDefinition());
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("cuts the run under way short and drops the waiting one, each saying why", async () => {
    await engine.taskOps.setSettings(id, { concurrentLimit: 1, limitMode: "wait", timezone: "UTC" });
    const body = { name: "Long", operations: [{ type: "sleep", duration: "10m" }] };
    const task = await engine.taskOps.create(id, body);
    await engine.taskOps.run(id, task.id);
    await engine.taskOps.run(id, task.id);
    await waitUntil(async () => (await engine.taskOps.runs(id, task.id)).length === 2, 5000, 20);

    await engine.taskOps.update(id, task.id, { ...body, enabled: false });
    await waitUntil(async () => (await finished(task.id)).length === 2, 5000, 20);
    for (const run of await finished(task.id)) {
      expect(run).toMatchObject({
        success: false,
        message: "the task was disabled or removed: this run was stopped",
      });
    }
    // The server's slot is free again: another task runs at once.
    const quick = await engine.taskOps.create(id, { name: "Quick", operations: [] });
    await engine.taskOps.run(id, quick.id);
    await waitUntil(async () => (await finished(quick.id)).length === 1, 5000, 20);
    expect((await finished(quick.id))[0].success).toBe(true);
  });

  it("stops the runs of a task that is removed", async () => {
    const task = await engine.taskOps.create(id, {
      name: "Gone",
      operations: [{ type: "sleep", duration: "10m" }],
    });
    await engine.taskOps.run(id, task.id);
    await engine.taskOps.delete(id, task.id);
    const quick = await engine.taskOps.create(id, { name: "After", operations: [] });
    await engine.taskOps.run(id, quick.id);
    await waitUntil(async () => (await finished(quick.id)).length === 1, 5000, 20);
  });
});
