import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

describe("a remote node's reachability follows its daemon", () => {
  const panel = usePanel();
  let api: PanelClient;
  let daemon: DaemonProcess;
  let nodeId: number;

  beforeAll(async () => {
    api = await adminClient(panel());
    ({ nodeId, daemon } = await addRemoteNode(api, "remote-one"));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  const reachable = async () => (await api.get(`/api/nodes/${nodeId}`)).body.reachable === true;

  it("is reachable while the daemon runs, and serves its features through the panel", async () => {
    await waitUntil(reachable, 10_000);
    const features = await api.get(`/api/nodes/${nodeId}/features`);
    expect(features.status).toBe(200);
    expect(features.body).toMatchObject({ os: "linux", environments: expect.arrayContaining(["host"]) });
  });

  it("is unreachable within 10 s of the daemon stopping, and calls fail fast", async () => {
    await daemon.stop();
    await waitUntil(async () => !(await reachable()), 10_000);
    const started = Date.now();
    const features = await api.get(`/api/nodes/${nodeId}/features`);
    expect(features.status).toBe(502);
    expect(features.body.error.code).toBe("ErrNodeUnreachable");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("is reachable again within 10 s of the daemon coming back, without a panel restart", async () => {
    await daemon.start();
    await waitUntil(reachable, 10_000);
    expect((await api.get(`/api/nodes/${nodeId}/features`)).status).toBe(200);
  });
});
