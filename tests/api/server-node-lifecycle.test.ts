import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { waitUntil } from "../support/poll.ts";
import { consoleText } from "../support/server-console.ts";
import { type PanelClient, usePanelWithRemoteNode } from "../support/test-panel.ts";

// Leaves a mark in its folder when it is told to stop, so a test can see the stop was graceful.
const markingServer = () =>
  echoDefinition({
    run: {
      command: `sh -c 'echo up; while read line; do [ "$line" = stop ] && { echo stopped > graceful-stop; exit 0; }; done'`,
      stop: "stop",
    },
  });

describe("servers across crashes and node restarts", () => {
  const remote = usePanelWithRemoteNode("restartable");
  let api: PanelClient;
  beforeAll(() => {
    api = remote().api;
  });

  it("restarts a crashing server while autorecover is set, and gives up after the crash limit", async () => {
    const crashing = echoDefinition({ run: { command: `sh -c 'echo crashing; exit 1'`, stop: "stop" } });
    expect((await api.put("/api/servers/dead0001", { ...crashing, node: 0 })).status).toBe(200);
    expect((await api.post("/api/servers/dead0001/flags", { autoRestartOnCrash: true })).status).toBe(204);
    await api.post("/api/servers/dead0001/start");
    await waitUntil(async () => (await consoleText(api, "dead0001")).includes("not restarting"), 20_000, 200);
    const text = await consoleText(api, "dead0001");
    // The first run and three restarts (the default crash limit), then it stays down.
    expect(text.match(/Starting server/g)).toHaveLength(4);
    // Nothing to wait for but time: longer than the restart delay (1 s), in which no restart may come.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await consoleText(api, "dead0001")).match(/Starting server/g)).toHaveLength(4);
    expect((await api.get("/api/servers/dead0001/status")).body.running).toBe(false);
  });

  it("does not restart a crash without autorecover", async () => {
    const crashing = echoDefinition({ run: { command: `sh -c 'exit 1'`, stop: "stop" } });
    expect((await api.put("/api/servers/dead0002", { ...crashing, node: 0 })).status).toBe(200);
    await api.post("/api/servers/dead0002/start");
    await waitUntil(
      async () => (await consoleText(api, "dead0002")).includes("exited with code 1"),
      10_000,
      100,
    );
    // Nothing to wait for but time: longer than the restart delay (1 s), in which no restart may come.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await consoleText(api, "dead0002")).match(/Starting server/g)).toHaveLength(1);
  });

  it("stops servers gracefully when the node shuts down, and autostarts them when it comes back", async () => {
    expect(
      (await api.put("/api/servers/a0705a01", { ...markingServer(), node: remote().nodeId })).status,
    ).toBe(200);
    expect((await api.post("/api/servers/a0705a01/flags", { autoStart: true })).status).toBe(204);
    await api.post("/api/servers/a0705a01/start");
    await waitUntil(
      async () => (await api.get("/api/servers/a0705a01/status")).body.running === true,
      10_000,
    );
    const mark = path.join(remote().daemon.config.dataDir, "servers", "a0705a01", "graceful-stop");
    expect(fs.existsSync(mark)).toBe(false);

    await remote().daemon.stop();
    expect(fs.readFileSync(mark, "utf8").trim()).toBe("stopped");
    fs.rmSync(mark);

    await remote().daemon.start();
    await waitUntil(
      async () => (await api.get("/api/servers/a0705a01/status")).body.running === true,
      15_000,
      250,
    );
    // Running means spawned: in the sandbox its first line follows a few milliseconds later.
    await waitUntil(async () => (await consoleText(api, "a0705a01")).includes("up"), 10_000, 100);
    expect((await api.post("/api/servers/a0705a01/stop?wait")).status).toBe(204);
    expect(fs.existsSync(mark)).toBe(true);
  });
});
