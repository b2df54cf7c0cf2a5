import os from "node:os";
import { describe, expect, it } from "vitest";
import {
  type InstanceHooks,
  type InstanceStatus,
  type RunPlan,
  ServerInstance,
} from "../../../server/daemon/runtime/instance.ts";
import { waitUntil } from "../../support/poll.ts";

const plan = (script: string, over: Partial<RunPlan> = {}): RunPlan => ({
  argv: ["sh", "-c", script],
  cwd: os.tmpdir(),
  env: { PATH: process.env.PATH ?? "" },
  stopText: "stop",
  stopSignal: 0,
  expectedExitCode: 0,
  autorecover: false,
  autorestart: false,
  ...over,
});

function instance(run: RunPlan, options: Partial<ConstructorParameters<typeof ServerInstance>[2]> = {}) {
  const statuses: string[] = [];
  const stopped: InstanceStatus[] = [];
  const posts: { success: boolean; exitCode: number }[] = [];
  const hooks: InstanceHooks = {
    plan: async () => run,
    pre: async () => {},
    post: async (r) => {
      posts.push(r);
    },
    onStatus: (s) => {
      statuses.push(s.installing ? "installing" : s.running ? "online" : "offline");
      if (!s.running && !s.installing) stopped.push(s);
    },
  };
  const server = new ServerInstance("abcd1234", hooks, {
    stopGraceMs: 500,
    crashLimit: 2,
    restartDelayMs: 50,
    consoleBytes: 64 * 1024,
    ...options,
  });
  const output = () => server.console.since(0).logs.toString();
  return { server, statuses, stopped, posts, output };
}

// A console that answers "pong" to "ping" and leaves on "stop".
const echoServer =
  'echo ready; while read line; do [ "$line" = stop ] && { echo bye; exit 0; }; echo "pong $line"; done';

describe("ServerInstance", () => {
  it("says a stop was a crash in the status that says it stopped, and not for a kill or a clean exit", async () => {
    const crashing = instance(plan("exit 3"));
    await crashing.server.start();
    await waitUntil(async () => crashing.stopped.length === 1, 5000, 20);
    expect(crashing.stopped).toEqual([{ running: false, installing: false, crashed: true }]);
    expect(crashing.server.status()).toEqual({ running: false, installing: false, crashed: true });

    const killed = instance(plan("sleep 30"));
    await killed.server.start();
    await killed.server.kill();
    expect(killed.server.status()).toEqual({ running: false, installing: false });

    const clean = instance(plan("exit 0"));
    await clean.server.start();
    await waitUntil(async () => !clean.server.status().running, 5000, 20);
    expect(clean.server.status().crashed).toBeUndefined();
  });

  it("runs, takes console commands, and stops with its stop text", async () => {
    const { server, statuses, posts, output } = instance(plan(echoServer));
    await server.start();
    expect(server.status()).toEqual({ running: true, installing: false });
    await waitUntil(async () => output().includes("ready"), 5000, 20);
    server.sendCommand("ping");
    await waitUntil(async () => output().includes("pong ping"), 5000, 20);
    await server.stop(true);
    expect(server.status().running).toBe(false);
    expect(output()).toContain("bye");
    expect(output()).toContain("[DAEMON] Server was told to stop");
    expect(statuses).toEqual(["online", "offline"]);
    await waitUntil(async () => posts.length === 1, 2000, 20);
    expect(posts).toEqual([{ success: true, exitCode: 0 }]);
  });

  it("refuses to start twice, and refuses commands while stopped", async () => {
    const { server } = instance(plan(echoServer));
    expect(() => server.sendCommand("ping")).toThrow(expect.objectContaining({ code: "ErrServerOffline" }));
    await server.start();
    await expect(server.start()).rejects.toMatchObject({ code: "ErrServerRunning" });
    await expect(server.install(async () => {})).rejects.toMatchObject({ code: "ErrServerRunning" });
    await server.kill();
    expect(server.status().running).toBe(false);
  });

  it("stops with a signal when the definition names one", async () => {
    const { server, output } = instance(
      plan("trap 'echo got-term; exit 0' TERM; echo trapped; while true; do sleep 0.1; done", {
        stopSignal: 15,
      }),
    );
    await server.start();
    // The shell says when its trap is set: a signal before that would end it without an answer.
    await waitUntil(async () => output().includes("trapped"), 5000, 10);
    await server.stop(true);
    expect(output()).toContain("got-term");
  });

  it("kills a server that ignores its stop text after the grace period", async () => {
    const { server, output } = instance(plan("trap '' TERM; while true; do sleep 0.1; done"));
    await server.start();
    await server.stop(true);
    expect(server.status().running).toBe(false);
    expect(output()).toContain("did not stop in time");
  });

  it("restarts a crashing server up to the crash limit, then leaves it stopped", async () => {
    const { server, output } = instance(plan("echo run; exit 1", { autorecover: true }));
    await server.start();
    await waitUntil(async () => output().includes("not restarting"), 10_000, 50);
    expect(output().match(/Starting server/g)).toHaveLength(3);
    expect(output().match(/\(crash\)/g)).toHaveLength(3);
    expect(server.status().running).toBe(false);
  });

  it("does not restart a crash without autorecover, and restarts a graceful exit with autorestart", async () => {
    const crash = instance(plan("exit 3"));
    await crash.server.start();
    await waitUntil(async () => crash.output().includes("exited with code 3"), 5000, 20);
    // Nothing to wait for but time: four restart delays (50 ms here) in which no restart may come.
    await new Promise((r) => setTimeout(r, 200));
    expect(crash.output().match(/Starting server/g)).toHaveLength(1);

    const graceful = instance(plan("sleep 0.1", { autorestart: true }));
    await graceful.server.start();
    await waitUntil(async () => (graceful.output().match(/Starting server/g) ?? []).length >= 3, 5000, 20);
    await graceful.server.close();
  });

  it("counts an expected non-zero exit code as graceful", async () => {
    const { server, posts } = instance(plan("exit 7", { expectedExitCode: 7, autorecover: true }));
    await server.start();
    await waitUntil(async () => posts.length === 1, 5000, 20);
    expect(posts[0]).toEqual({ success: true, exitCode: 7 });
  });

  it("marks the server installing while install steps run", async () => {
    const { server, statuses } = instance(plan(echoServer));
    let seen: unknown;
    await server.install(async () => {
      seen = server.status();
    });
    expect(seen).toEqual({ running: false, installing: true });
    expect(statuses).toEqual(["installing", "offline"]);
  });
});
