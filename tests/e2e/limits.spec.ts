import type { Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, registerUser, snap, unique } from "./helpers.ts";

// Resource limits through the UI: an administrator sets them in the admin section of the server
// view and in the creation wizard, and the server list shows a running server's usage against them.

async function top(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
}

test("an administrator sets limits in the admin section; the list shows usage against them", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const name = unique("limits-");
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0, users: ["admin"] })).status,
  ).toBe(200);

  await page.goto(`/servers/view/${id}`);
  await login(page);
  await page.getByRole("tab", { name: "Admin" }).click();
  const fields = page.getByTestId("limits-fields");
  await expect(fields.getByLabel("Memory limit (MiB)")).toHaveValue("");
  await fields.getByLabel("Memory limit (MiB)").fill("0");
  await expect(fields.getByText("Enter a whole number")).toBeVisible();
  await expect(page.getByTestId("save-limits")).toBeDisabled();
  await fields.getByLabel("Memory limit (MiB)").fill("256");
  await fields.getByLabel("CPU (% of one core)").fill("50");
  await fields.getByLabel("Processes").fill("64");
  await page.getByTestId("save-limits").click();
  await expect(page.getByText("Limits saved")).toBeVisible();
  expect((await api.get(`/api/servers/${id}/definition`)).body.limits).toEqual({
    memoryMiB: 256,
    cpuPercent: 50,
    pids: 64,
  });
  // The definition editor below reads the definition again and shows them.
  await expect(page.getByTestId("definition-editor")).toHaveValue(/"memoryMiB": 256/);
  await top(page, "server-limits-desktop");

  // Running, the list shows its CPU and memory against the limits.
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  await page.getByRole("link", { name: "Servers", exact: true }).first().click();
  await page.getByTestId("server-search").fill(name);
  const entry = page.getByTestId("server-entry").filter({ hasText: name });
  await expect(entry.locator(".status")).toHaveAttribute("data-status", "online");
  const usage = entry.getByTestId("server-usage");
  await expect(usage).toContainText("/ 256 MiB");
  await expect(usage).toContainText("/ 50 %");
  await expect(usage.locator("meter")).toHaveCount(2);
  await expect(page.getByTestId("server-entry")).toHaveCount(1);
  await top(page, "server-list-usage-desktop");

  await page.setViewportSize({ width: 360, height: 640 });
  await page.reload();
  await page.getByTestId("server-search").fill(name);
  // Only once the filtered list is in (the whole list shows first).
  await expect(page.getByTestId("server-entry")).toHaveCount(1);
  await expect(usage).toContainText("/ 256 MiB");
  await top(page, "server-list-usage-phone");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.goto(`/servers/view/${id}#admin`);
  await page.getByRole("tab", { name: "Admin" }).click();
  await expect(page.getByTestId("limits-fields").getByLabel("Memory limit (MiB)")).toHaveValue("256");
  await top(page, "server-limits-phone");
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

  // Cleared, the limits go back to the node's defaults.
  await page.getByTestId("limits-fields").getByLabel("Memory limit (MiB)").fill("");
  await page.getByTestId("limits-fields").getByLabel("CPU (% of one core)").fill("");
  await page.getByTestId("limits-fields").getByLabel("Processes").fill("");
  await page.getByTestId("save-limits").click();
  await expect.poll(async () => (await api.get(`/api/servers/${id}/definition`)).body.limits).toBeUndefined();
  expect((await api.post(`/api/servers/${id}/kill`)).status).toBe(204);
});

test("on a phone, an administrator sets swap, CPU threads and IO weight, each field saying what is wrong", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const name = unique("limits-more-");
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0, users: ["admin"] })).status,
  ).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/servers/view/${id}`);
  await login(page);
  await page.getByRole("tab", { name: "Admin" }).click();
  const fields = page.getByTestId("limits-fields");
  const save = page.getByTestId("save-limits");
  await expect(fields.getByText("For example 0,1 or 0-3; empty: all")).toBeVisible();
  // Swap needs a memory limit; threads must be a CPU list; the weight 10 to 1000.
  await fields.getByLabel("Swap (MiB)").fill("256");
  await expect(fields.getByText("Needs a memory limit")).toBeVisible();
  await fields.getByLabel("CPU threads").fill("0, 1");
  await expect(fields.getByText("Enter CPU numbers like 0,1 or 0-3")).toBeVisible();
  await fields.getByLabel("IO weight").fill("5");
  await expect(fields.getByText("Enter a number from 10 to 1000")).toBeVisible();
  await expect(save).toBeDisabled();
  await fields.getByLabel("Memory limit (MiB)").fill("512");
  await fields.getByLabel("CPU threads").fill("0-1");
  await fields.getByLabel("IO weight").fill("700");
  await expect(fields.locator(".field.invalid")).toHaveCount(0);
  await top(page, "server-limits-more-phone");
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await save.click();
  await expect(page.getByText("Limits saved")).toBeVisible();
  expect((await api.get(`/api/servers/${id}/definition`)).body.limits).toEqual({
    memoryMiB: 512,
    swapMiB: 256,
    cpuThreads: "0-1",
    ioWeight: 700,
  });
  // Unlimited swap: the number field steps aside.
  await fields.getByRole("switch", { name: "Unlimited swap" }).check();
  await expect(fields.getByLabel("Swap (MiB)")).toBeDisabled();
  await expect(fields.getByText("As much as the host has")).toBeVisible();
  await save.click();
  await expect
    .poll(async () => (await api.get(`/api/servers/${id}/definition`)).body.limits.swapMiB)
    .toBe("unlimited");
  await page.reload();
  await page.getByRole("tab", { name: "Admin" }).click();
  await expect(fields.getByRole("switch", { name: "Unlimited swap" })).toBeChecked();
  await expect(fields.getByLabel("CPU threads")).toHaveValue("0-1");
});

test("the creation wizard shows the limits to an administrator and creates the server with them", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const template = unique("limits-tpl-");
  expect(
    (await api.put(`/api/templates/0/${template}`, echoDefinition({ limits: { memoryMiB: 512 } }))).status,
  ).toBe(204);
  const name = unique("limits-new-");

  await page.goto("/servers/new");
  await login(page);
  await page.getByTestId("template-search").fill(template);
  await page.getByTestId("template-item").filter({ hasText: template }).click();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("wizard-next").click();
  const settings = page.getByTestId("wizard-settings");
  await settings.getByTestId("server-name").fill(name);
  const fields = settings.getByTestId("limits-fields");
  // The template's own limits are the starting point.
  await expect(fields.getByLabel("Memory limit (MiB)")).toHaveValue("512");
  await fields.getByLabel("Memory limit (MiB)").fill("384");
  await fields.getByLabel("Disk (MiB)").fill("2048");
  await top(page, "server-wizard-limits");
  await page.getByTestId("wizard-create").click();
  await expect(page).toHaveURL(/\/servers\/view\/[0-9a-f]{8}$/);
  const id = page.url().split("/").pop() as string;
  expect((await api.get(`/api/servers/${id}/definition`)).body.limits).toEqual({
    memoryMiB: 384,
    diskMiB: 2048,
  });
});

test("a server user who may edit the definition gets no limits to set", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const user = await registerUser(baseURL!, "limited");
  const id = newServerId();
  const name = unique("limits-user-");
  const definition = echoDefinition({ limits: { memoryMiB: 128 } });
  expect((await api.put(`/api/servers/${id}`, { ...definition, name, node: 0 })).status).toBe(200);
  const scopes = ["server.view", "server.definition.view", "server.definition.edit"];
  expect(
    (await api.put(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { scopes })).status,
  ).toBe(204);

  await page.goto(`/servers/view/${id}`);
  await login(page, user.email, user.password);
  await page.getByRole("tab", { name: "Admin" }).click();
  await expect(page.getByTestId("definition-editor")).toHaveValue(/"memoryMiB": 128/);
  await expect(page.getByTestId("limits-fields")).toHaveCount(0);
});
