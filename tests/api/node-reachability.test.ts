import { beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../support/poll.ts";
import { type PanelClient, usePanelWithRemoteNode } from "../support/test-panel.ts";

describe("a remote node's reachability follows its daemon", () => {
  const remote = usePanelWithRemoteNode("remote-one");
  let api: PanelClient;
  beforeAll(() => {
    api = remote().api;
  });

  const reachable = async () => (await api.get(`/api/nodes/${remote().nodeId}`)).body.reachable === true;

  it("is reachable while the daemon runs, and serves its features through the panel", async () => {
    await waitUntil(reachable, 10_000);
    const features = await api.get(`/api/nodes/${remote().nodeId}/features`);
    expect(features.status).toBe(200);
    expect(features.body).toMatchObject({ os: "linux", environments: expect.arrayContaining(["host"]) });
  });

  it("is unreachable within 10 s of the daemon stopping, and calls fail fast", async () => {
    await remote().daemon.stop();
    await waitUntil(async () => !(await reachable()), 10_000);
    const started = Date.now();
    const features = await api.get(`/api/nodes/${remote().nodeId}/features`);
    expect(features.status).toBe(502);
    expect(features.body.error.code).toBe("ErrNodeUnreachable");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("is reachable again within 10 s of the daemon coming back, without a panel restart", async () => {
    await remote().daemon.start();
    await waitUntil(reachable, 10_000);
    expect((await api.get(`/api/nodes/${remote().nodeId}/features`)).status).toBe(200);
  });
});
