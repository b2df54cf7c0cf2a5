import { echoDefinition } from "../support/echo-template.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snap, unique } from "./helpers.ts";

// Move to node: an administrator moves a stopped server from the local node to a remote one in the
// server's Admin section, which lists each node with its free space; at desktop and phone size.

const serverId = () => Array.from({ length: 8 }, () => Math.floor(Math.random() * 16).toString(16)).join("");

for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`an administrator moves a server to another node (${label})`, async ({ page, baseURL }) => {
    await page.setViewportSize(viewport);
    const api = await adminApi(baseURL!);
    const nodeName = unique("target-");
    const { nodeId, daemon } = await addRemoteNode(api, nodeName);
    try {
      const id = serverId();
      const made = await api.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: unique("mover-"),
        node: 0,
      });
      expect(made.status, made.text).toBe(200);

      await page.goto(`/servers/view/${id}`);
      await login(page);
      await page.getByRole("tab", { name: "Admin" }).click();
      const section = page.getByTestId("move-to-node");
      const choice = section.getByTestId("move-target");
      await expect(choice.locator("option", { hasText: nodeName })).toHaveText(
        new RegExp(`${nodeName} \\(.+ free\\)`),
      );
      await choice.selectOption(String(nodeId));
      await section.scrollIntoViewIfNeeded();
      await snap(page, `server-move-${label}`);
      await section.getByTestId("move-server").click();
      await expect(page.getByText(`Moved to ${nodeName}`)).toBeVisible({ timeout: 30_000 });
      expect((await api.get(`/api/servers/${id}`)).body.server.node.id).toBe(nodeId);
      // The list now offers the node it came from.
      await expect(choice.locator("option").first()).toContainText("free");
      await snap(page, `server-moved-${label}`);
      expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
    } finally {
      await daemon.destroy();
      await api.delete(`/api/nodes/${nodeId}`);
    }
  });
}
