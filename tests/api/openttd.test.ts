import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { freePort } from "../support/free-port.ts";
import { openttdTemplate } from "../support/openttd-template.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

describe("a real OpenTTD server on a remote node, through the panel, in the hardened host environment", () => {
  const panel = usePanel();
  let api: PanelClient;
  let daemon: DaemonProcess;
  let nodeId: number;
  const id = "0e7dd001";

  beforeAll(async () => {
    api = await adminClient(panel());
    ({ nodeId, daemon } = await addRemoteNode(api, "game-host"));
  });
  afterAll(async () => {
    await api?.post(`/api/servers/${id}/kill`);
    await daemon?.destroy();
  });

  it("installs, starts, answers a console command, and stops on its stop text", async () => {
    // The node sandboxes its servers and holds them to their limits: the game runs under both.
    const features = (await api.get(`/api/nodes/${nodeId}/features`)).body.features;
    expect(features).toEqual(expect.arrayContaining(["sandbox", "limits"]));
    const created = await api.put(`/api/servers/${id}`, {
      ...openttdTemplate(await freePort()),
      limits: { memoryMiB: 512, pids: 128, cpuPercent: 100 },
      name: "OpenTTD",
      node: nodeId,
    });
    expect(created.status, created.text).toBe(200);
    const socket = await openServerSocket(api, id);
    // The panel's stream from the node is live once the node's first status (sent on subscribing)
    // has come through; an install begun before that could end before the stream is there.
    await waitUntil(async () => socket.frames.some((f) => f.type === "status"), 10_000, 50);

    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    expect(socket.frames.some((f) => f.type === "status" && f.data.installing === true)).toBe(true);
    expect((await api.get(`/api/servers/${id}/status`)).body).toEqual({
      running: false,
      installing: false,
      installed: true,
    });

    expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
    await waitUntil(async () => /starting game|Map generated/i.test(socket.consoleText()), 30_000, 200);
    expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(true);
    // Its figures come from its cgroup.
    expect((await api.get(`/api/servers/${id}/stats`)).body.memory).toBeGreaterThan(0);

    const sent = await api.call("POST", `/api/servers/${id}/console`, {
      raw: "server_info",
      headers: { "content-type": "text/plain" },
    });
    expect(sent.status).toBe(204);
    await waitUntil(
      async () => /Outpost OpenTTD|Current\/maximum clients/i.test(socket.consoleText()),
      10_000,
      200,
    );

    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    await waitUntil(
      async () => socket.frames.some((f) => f.type === "status" && f.data.running === false),
      10_000,
      100,
    );
    expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(false);
    expect(socket.consoleText()).toMatch(/exited with code 0/);
    socket.close();
  });
});
