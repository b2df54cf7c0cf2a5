import { randomBytes } from "node:crypto";
import { echoDefinition } from "../support/echo-template.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, deviceContext, login, snap, unique, visitAsAdmin } from "./helpers.ts";

// Issue 25: the server list follows its servers over one /api/live socket; it sends no request per
// server while that socket is up, yet a start and a stop made elsewhere show at once.

test("the server list updates over the live socket without polling each server", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const name = unique("live-list-");
  const id = unique("")
    .replace(/[^0-9a-z]/gi, "")
    .slice(-8)
    .padStart(8, "0");
  const created = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0, users: [] });
  expect(created.status, created.text).toBe(200);

  const perServer: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/servers\/[^/]+\/(status|stats)$/.test(new URL(request.url()).pathname))
      perServer.push(request.url());
  });
  const live = page.waitForEvent("websocket", (ws) => ws.url().endsWith("/api/live"));

  await page.goto("/servers");
  await login(page);
  await page.getByTestId("server-search").fill(name);
  const entry = page.getByTestId("server-entry").filter({ hasText: name });
  await expect(entry.locator(".status")).toHaveAttribute("data-status", "offline");
  await live;

  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  await expect(entry.locator(".status")).toHaveAttribute("data-status", "online");
  // Figures come pushed once per sample while it runs.
  await expect(entry.getByTestId("server-usage")).toBeVisible({ timeout: 15_000 });
  expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
  await expect(entry.locator(".status")).toHaveAttribute("data-status", "offline");

  expect(perServer).toEqual([]);

  // Back to the whole list: its kept copy shows first, then the fresh one; still no read per server.
  await page.getByTestId("server-search").fill("");
  await page.goto("/nodes");
  await page.goto("/servers");
  await expect(page.getByTestId("server-entry").first().locator(".status")).not.toHaveAttribute(
    "data-status",
    "unknown",
  );
  await expect(page.getByTestId("server-list")).not.toHaveAttribute("aria-busy", "true");
  expect(perServer).toEqual([]);
  await api.delete(`/api/servers/${id}`);
});

// A server whose node cannot be reached: the list says so (no endless "Unknown" spinner, no
// actions), in the page's language, and shows its status again once the node is back.
for (const [label, locale, width] of [
  ["desktop", "de-DE", 1280],
  ["phone", "ru-RU", 390],
] as const) {
  test(`the server list shows a server's node as unreachable (${label}, ${locale})`, async ({
    browser,
    baseURL,
  }) => {
    const api = await adminApi(baseURL!);
    const { nodeId, daemon } = await addRemoteNode(api, unique("away-"));
    const id = randomBytes(4).toString("hex");
    const name = unique("away-server-");
    try {
      const made = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: nodeId });
      expect(made.status, made.text).toBe(200);
      await daemon.stop();

      const context = await deviceContext(browser, { baseURL: baseURL!, locale, width });
      const page = await context.newPage();
      await visitAsAdmin(page, "/servers");
      await page.getByTestId("server-search").fill(name);
      // Only once the filtered list is in (the whole list shows first).
      await expect(page.getByTestId("server-entry")).toHaveCount(1);
      const entry = page.getByTestId("server-entry").filter({ hasText: name });
      const status = entry.locator(".status");
      await expect(status).toHaveAttribute("data-status", "unreachable", { timeout: 15_000 });
      await expect(status).not.toContainText("Unreachable");
      await expect(entry.locator(".server-entry-actions button")).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snap(page, `server-list-unreachable-${label}`);

      await daemon.start();
      await expect(status).toHaveAttribute("data-status", "offline", { timeout: 20_000 });
      await context.close();
    } finally {
      await daemon.start().catch(() => {});
      await api.delete(`/api/servers/${id}`);
      await daemon.destroy();
      await api.delete(`/api/nodes/${nodeId}`);
    }
  });
}
