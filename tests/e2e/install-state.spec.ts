import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, snap, unique } from "./helpers.ts";

test("a server never installed says so and offers Install instead of a Start that would fail", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const created = await api.put(`/api/servers/${id}`, {
    ...echoDefinition({ install: [{ type: "writefile", target: "motd.txt", text: "${motd}" }] }),
    name: "Not yet installed",
    node: 0,
  });
  expect(created.status, created.text).toBe(200);

  await page.goto(`/servers/view/${id}`);
  await login(page);
  const actions = page.getByTestId("server-actions");
  await expect(page.getByTestId("not-installed")).toBeVisible();
  await expect(actions.getByTestId("action-start")).toHaveCount(0);
  await snap(page, "server-not-installed");

  // Nothing to replace yet: Install runs without the reinstall warning.
  await actions.getByTestId("action-install").click();
  await expect(page.getByTestId("not-installed")).toBeHidden();
  await expect(actions.getByTestId("action-start")).toBeVisible();
  await actions.getByTestId("action-start").click();
  await expect(actions.getByTestId("action-stop")).toBeVisible();
  await actions.getByTestId("action-kill").click();
  await page.getByRole("dialog").getByRole("button", { name: "Kill" }).click();
  await expect(actions.getByTestId("action-start")).toBeVisible();
  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

test("a server whose install failed says so with the reason, and the list offers Install, never Start", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const name = unique("Install goes wrong ");
  const created = await api.put(`/api/servers/${id}`, {
    ...echoDefinition({ install: [{ type: "writefile", target: "../escape.txt", text: "x" }] }),
    name,
    node: 0,
  });
  expect(created.status, created.text).toBe(200);
  expect((await api.post(`/api/servers/${id}/install?wait=true`)).status).not.toBe(204);

  await page.goto(`/servers/view/${id}`);
  await login(page);
  const failed = page.getByTestId("install-failed");
  await expect(failed).toContainText("Install failed:");
  await expect(failed.locator("q")).toContainText("writefile: illegal file access");
  await expect(page.getByTestId("not-installed")).toHaveCount(0);
  const actions = page.getByTestId("server-actions");
  await expect(actions.getByTestId("action-install")).toBeVisible();
  await expect(actions.getByTestId("action-start")).toHaveCount(0);
  await snap(page, "server-install-failed");

  await page.goto("/servers");
  // Found by name: in a whole run other specs' servers may fill the list's first page.
  await page.getByTestId("server-search").fill(name);
  const entry = page.getByTestId("server-entry").filter({ hasText: name });
  await expect(entry.getByRole("button", { name: `Install ${name}` })).toBeVisible();
  await expect(entry.getByRole("button", { name: `Start ${name}` })).toHaveCount(0);
  await snap(page, "server-list-install-failed");
  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});
