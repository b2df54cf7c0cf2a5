import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, unique } from "./helpers.ts";

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
  await api.delete(`/api/servers/${id}`);
});
