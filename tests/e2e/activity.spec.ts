import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import {
  admin,
  adminApi,
  deviceContext,
  login,
  registerUser,
  snap,
  tr,
  unique,
  visitAsAdmin,
} from "./helpers.ts";

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
  // The action in words, its code on hover.
  await expect(page.getByTestId("activity-entry").first()).toContainText("Signed in");
  await expect(page.getByTestId("activity-entry").first().locator(".activity-action")).toHaveAttribute(
    "title",
    /^auth\.login/,
  );
  await expect(page.getByTestId("activity-entry").first()).toContainText(admin.username);
  await page.getByTestId("activity-action").fill("");

  // Search finds this server's entries only; the action filter narrows them further.
  await page.getByTestId("activity-search").fill(id);
  await expect(page.getByTestId("activity-entry")).toHaveCount(2);
  await page.getByTestId("activity-action").fill("server.rename");
  await expect(page.getByTestId("activity-entry")).toHaveCount(1);
  const renamed = page.getByTestId("activity-entry");
  await expect(renamed).toContainText("Renamed the server");
  // What it was called before, and the server by its name with its id on hover.
  await expect(renamed.getByTestId("activity-field")).toContainText(`${id}→${id}-renamed`);
  await expect(renamed.getByTestId("activity-server-name")).toHaveText(`${id}-renamed`);
  await expect(renamed.getByTestId("activity-server-name")).toHaveAttribute("title", id);
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
  await expect(section.getByTestId("activity-entry").first()).toContainText("Renamed the server");
  await snap(page, "activity-server");

  // The account page lists one's own sign-ins.
  await page.goto("/self");
  await expect(page.getByTestId("self-activity").getByTestId("activity-entry").first()).toBeVisible();
  await expect(page.getByTestId("self-activity")).toContainText("Signed in");
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

// The log reads in the page's language: the action's name, the server's name (its id on hover),
// permissions as the picker names them, before → after. German and Arabic (right to left), on a
// desktop and a phone; Japanese for the screenshots too.
for (const [locale, catalog] of [
  ["de-DE", "de_DE"],
  ["ar-SA", "ar_SA"],
  ["ja-JP", "ja_JP"],
] as const) {
  for (const width of [1280, 390]) {
    test(`the activity log names actions, servers and permissions in the page's language (${locale}, ${width} px)`, async ({
      browser,
      baseURL,
    }) => {
      const api = await adminApi(baseURL!);
      const id = unique("actl").slice(0, 20);
      const name = `${id}-Welt`;
      expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: 0 })).status).toBe(
        200,
      );
      expect((await api.put(`/api/servers/${id}/name/${name}`)).status).toBe(204);
      // Granted to a user of its own: changing the administrator's rights would end their open
      // sockets in other specs running beside this one.
      const grantee = await registerUser(baseURL!, "actgrant");
      const grant = (scopes: string[]) =>
        api.put(`/api/servers/${id}/user/${encodeURIComponent(grantee.email)}`, { scopes });
      expect((await grant(["server.view", "server.start"])).status).toBe(204);
      expect((await grant(["server.view", "server.stop", "server.console"])).status).toBe(204);

      const context = await deviceContext(browser, { baseURL: baseURL!, locale, width });
      const page = await context.newPage();
      await visitAsAdmin(page, "/activity");
      await page.getByTestId("activity-search").fill(id);
      const entries = page.getByTestId("activity-entry");
      await expect(entries).toHaveCount(4);

      const renamed = entries.filter({ has: page.locator('[data-action="server.rename"]') });
      const label = tr(catalog, "Renamed the server");
      expect(label).not.toBe("Renamed the server");
      await expect(renamed.locator(".activity-action")).toHaveText(label);
      await expect(renamed.getByTestId("activity-server-name")).toHaveText(name);
      await expect(renamed.getByTestId("activity-server-name")).toHaveAttribute("title", id);
      await expect(renamed.getByTestId("activity-field")).toContainText(id);
      // The action filter offers the actions by name.
      await expect(page.locator('#activity-action-names option[value="server.rename"]')).toHaveAttribute(
        "label",
        label,
      );

      // The second grant: what came and what went, as the permission picker words them.
      const changed = entries.filter({ has: page.locator('[data-action="server.user.edit"]') }).first();
      await expect(changed.locator(".activity-action")).toHaveText(
        tr(catalog, "Added a user or changed their permissions"),
      );
      await expect(changed.locator(".activity-added")).toHaveText([
        `+ ${tr(catalog, "Stop")}`,
        `+ ${tr(catalog, "Read the console")}`,
      ]);
      await expect(changed.locator(".activity-removed")).toHaveText([`− ${tr(catalog, "Start")}`]);
      await expect(changed).not.toContainText("server.stop");

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snap(page, `activity-words-${locale}-${width}`);
      await context.close();
      await api.delete(`/api/servers/${id}`);
    });
  }
}
