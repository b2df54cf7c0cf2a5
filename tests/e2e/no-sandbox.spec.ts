import { type DaemonProcess, hideBubblewrap, startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { loopbackNode } from "../support/remote-node.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, unique } from "./helpers.ts";

const refusal = "Servers cannot run on this node: it has no sandbox (bubblewrap (bwrap) is not installed).";

test("a node without bubblewrap says why servers cannot run, in its view and when a start is refused", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  let daemon: DaemonProcess | undefined;
  let nodeId: number | undefined;
  try {
    // Not addRemoteNode: the node is known before its daemon starts, so a failed start still removes it.
    const node = await api.post("/api/nodes", await loopbackNode(unique("nobwrap")));
    expect(node.status, node.text).toBe(200);
    nodeId = node.body.id;
    const deployment = await api.get(`/api/nodes/${node.body.id}/deployment`);
    daemon = await startDaemon(deployment.body.config, {}, hideBubblewrap());

    await page.goto(`/nodes/view/${node.body.id}`);
    await login(page);
    await expect(page.getByTestId("node-features").getByTestId("reachable")).toHaveText("Reachable");
    await expect(page.getByTestId("feature-sandbox")).toHaveText("Not available");
    const warning = page.getByTestId("sandbox-warning");
    await expect(warning).toContainText(refusal);
    await expect(warning).toContainText("apt-get install bubblewrap");

    const id = newServerId();
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      name: "No sandbox",
      node: node.body.id,
    });
    expect(created.status, created.text).toBe(200);
    await page.goto(`/servers/view/${id}`);
    await page.getByTestId("server-actions").getByTestId("action-start").click();
    await expect(page.getByTestId("toast").filter({ hasText: refusal })).toBeVisible();
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  } finally {
    // The suite shares one panel: a node left behind would be an unreachable first row for later specs.
    if (nodeId !== undefined) await api.delete(`/api/nodes/${nodeId}`);
    await daemon?.destroy();
  }
});
