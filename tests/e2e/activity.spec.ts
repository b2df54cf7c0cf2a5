import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, login, snap, unique } from "./helpers.ts";

test("an administrator reads, filters, searches and exports the activity log; a server and the account show theirs", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = unique("act").slice(0, 20);
  expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: 0 })).status).toBe(200);
  expect((await api.put(`/api/servers/${id}/name/${id}-renamed`)).status).toBe(204);

  await page.goto("/servers");
  await login(page);
  await expect(page).toHaveURL(/\/servers$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByTestId("activity-entry").first()).toBeVisible();
  // The sign-in just made is there, by the administrator: found by search, as other specs running
  // beside this one fill the first page with their own entries.
  await page.getByTestId("activity-search").fill(admin.username);
  await page.getByTestId("activity-action").fill("auth.login");
  await expect(page.getByTestId("activity-entry").first()).toContainText("auth.login");
  await expect(page.getByTestId("activity-entry").first()).toContainText(admin.username);
  await page.getByTestId("activity-action").fill("");

  // Search finds this server's entries only; the action filter narrows them further.
  await page.getByTestId("activity-search").fill(id);
  await expect(page.getByTestId("activity-entry")).toHaveCount(2);
  await page.getByTestId("activity-action").fill("server.rename");
  await expect(page.getByTestId("activity-entry")).toHaveCount(1);
  await expect(page.getByTestId("activity-entry")).toContainText(`name:${id}-renamed`);
  await page.getByTestId("activity-action").fill("");
  await expect(page.getByTestId("activity-entry")).toHaveCount(2);
  await snap(page, "activity-admin");

  // The export link carries the filters and downloads CSV.
  const href = await page.getByTestId("activity-csv").getAttribute("href");
  expect(href).toContain("format=csv");
  expect(href).toContain(`q=${id}`);
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toMatch(/^id,time,actorKind/);
  expect(lines).toHaveLength(3);

  // The server's own section.
  await page.goto(`/servers/view/${id}`);
  await page.getByRole("tab", { name: "Activity" }).click();
  const section = page.locator("#section-activity");
  await expect(section.getByTestId("activity-entry")).toHaveCount(2);
  await expect(section.getByTestId("activity-entry").first()).toContainText("server.rename");
  await snap(page, "activity-server");

  // The account page lists one's own sign-ins.
  await page.goto("/self");
  await expect(page.getByTestId("self-activity").getByTestId("activity-entry").first()).toBeVisible();
  await expect(page.getByTestId("self-activity")).toContainText("auth.login");
  await snap(page, "activity-self");

  // On a phone the filters wrap and the entries stay readable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/activity");
  await expect(page.getByTestId("activity-entry").first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, "activity-admin-phone");
  await page.goto(`/servers/view/${id}#activity`);
  await expect(page.locator("#section-activity").getByTestId("activity-entry")).toHaveCount(2);
  await snap(page, "activity-server-phone");
});

test("a user without admin sees no Activity page in the navigation", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const name = unique("noact");
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  const user = { username: name, email: `${name}@example.com`, password: "user-password-1" };
  await page.goto("/auth/register");
  await page.request.get("/api/config");
  const registered = await page.request.post("/auth/register", {
    data: user,
    headers: {
      "x-xsrf-token": (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "",
    },
  });
  expect(registered.status()).toBe(200);
  await page.goto("/self");
  await expect(page.getByTestId("self-activity")).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }),
  ).toHaveCount(0);
});
