import type { Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snap, unique } from "./helpers.ts";

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test("an admin creates a user and sets their scopes; the user sees only what those allow", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const name = unique("e2euser");
  const user = { username: name, email: `${name}@example.com`, password: "user-password-1" };

  await page.goto("/users");
  await login(page);
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByTestId("user-list")).toBeVisible();
  await page.getByRole("link", { name: "New user" }).click();
  await expect(page).toHaveURL(/\/users\/new$/);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await snap(page, "user-create");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page).toHaveURL(/\/users\/view\/\d+$/);
  const id = Number(page.url().split("/").pop());
  await expect(page.getByTestId("user-title")).toHaveText(user.username);

  // Scopes: the defaults of a new user are on; give them the nodes list as well.
  const scopes = page.getByTestId("user-scopes");
  await expect(scopes.locator('input[data-scope="login"]')).toBeChecked();
  await expect(scopes.locator('input[data-scope="nodes.view"]')).not.toBeChecked();
  await scopes.getByLabel("See nodes").check();
  await page.getByRole("button", { name: "Save permissions" }).click();
  await expect(page.getByText("Permissions saved")).toBeVisible();
  expect((await api.get(`/api/users/${id}/perms`)).body.scopes.sort()).toEqual([
    "login",
    "nodes.view",
    "self.clients",
    "self.edit",
  ]);
  await snap(page, "user-view");

  // The list finds them by part of their e-mail, in both layouts.
  await nav(page).getByRole("link", { name: "Users" }).click();
  await page.getByTestId("user-search").fill(name.slice(3));
  await expect(page.getByTestId("user-entry")).toHaveCount(1);
  await expect(page.getByTestId("user-entry")).toContainText(user.email);
  await page.getByRole("button", { name: "List" }).click();
  await expect(page.getByTestId("user-list")).toHaveClass(/item-list-list/);
  await snap(page, "user-list");

  // The user signs in and sees servers, nodes and their account; nothing else.
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await login(page, user.email, user.password);
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await nav(page).getByRole("link", { name: "Servers" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  for (const shown of ["Servers", "Nodes", "Account"]) {
    await expect(nav(page).getByRole("link", { name: shown })).toBeVisible();
  }
  for (const hidden of ["Users", "Templates", "Settings"]) {
    await expect(nav(page).getByRole("link", { name: hidden })).toHaveCount(0);
  }
  await nav(page).getByRole("link", { name: "Nodes" }).click();
  await expect(page.getByTestId("node-list")).toBeVisible();
  await page.goto("/users");
  await expect(page.getByText("Your account may not open this page.")).toBeVisible();
  await snap(page, "user-limited");

  // Deleted by the administrator, their open page is signed out at its next call.
  expect((await api.delete(`/api/users/${id}`)).status).toBe(204);
  await page.goto("/servers");
  await expect(page).toHaveURL(/\/auth\/login/);
});

test("the admin sets a password and deletes a user from the user's page", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const name = unique("e2edel");
  const created = await api.post("/api/users", {
    username: name,
    email: `${name}@example.com`,
    password: "first-password",
  });
  expect(created.status).toBe(200);
  await page.goto(`/users/view/${created.body.id}`);
  await login(page);
  await expect(page.getByTestId("user-title")).toHaveText(name);
  await page.getByLabel("New password").fill("second-password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Password changed")).toBeVisible();
  const check = await adminApi(baseURL!);
  expect(
    (await check.post("/auth/login", { email: `${name}@example.com`, password: "second-password" })).status,
  ).toBe(200);

  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Delete user ${name}?`);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/users$/);
  expect((await api.get(`/api/users/${created.body.id}`)).status).toBe(404);
});

test("the top bar search finds a server, a user, a node and a template from the keyboard", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const token = unique("qz").toLowerCase();
  const serverId = Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, "0");
  const server = await api.put(`/api/servers/${serverId}`, {
    ...echoDefinition(),
    name: `${token} server`,
    node: 0,
  });
  expect(server.status, server.text).toBe(200);
  const user = await api.post("/api/users", {
    username: `${token}user`,
    email: `${token}@example.com`,
    password: "search-password",
  });
  expect(user.status).toBe(200);
  const node = await api.post("/api/nodes", {
    name: `${token}node`,
    publicHost: "search.example.com",
    publicPort: 27015,
    privateHost: "127.0.0.1",
    privatePort: await freePort(),
    sftpPort: await freePort(),
  });
  expect(node.status).toBe(200);
  const template = `${token}tpl`;
  const put = await api.call("PUT", `/api/templates/0/${template}`, {
    json: { ...echoDefinition(), display: `${token} template` },
  });
  expect(put.status).toBe(204);

  try {
    await page.goto("/servers");
    await login(page);
    await expect(page).toHaveURL(/\/servers$/);
    const box = page.getByTestId("global-search");
    const search = async () => {
      // "/" focuses the box (unless focus is in it already: there it is just a character).
      if (!(await box.evaluate((el) => el === document.activeElement))) await page.keyboard.press("/");
      await expect(box).toBeFocused();
      await expect(box).toHaveValue("");
      await page.keyboard.type(token);
      await expect(page.getByRole("listbox", { name: "Search results" })).toBeVisible();
      for (const group of ["servers", "users", "nodes", "templates"]) {
        await expect(page.getByTestId(`search-hit-${group}`)).toHaveCount(1);
      }
    };
    const selected = () => page.locator('[role="option"][aria-selected="true"]');

    // The first hit is selected; Enter opens the server.
    await search();
    await snap(page, "search");
    await expect(selected()).toContainText(`${token} server`);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/servers/view/${serverId}$`));
    await expect(box).toHaveValue("");

    // Down once: the user.
    await search();
    await page.keyboard.press("ArrowDown");
    await expect(selected()).toContainText(`${token}user`);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/users/view/${user.body.id}$`));

    // Down twice: the node.
    await search();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/nodes/view/${node.body.id}$`));

    // Up from the first wraps around to the last: the template.
    await search();
    await page.keyboard.press("ArrowUp");
    await expect(selected()).toContainText(`${token} template`);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/templates/view/0/${template}$`));

    // Down past the last wraps to the first; Escape clears and closes.
    await search();
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
    await expect(selected()).toContainText(`${token} server`);
    await page.keyboard.press("Escape");
    await expect(box).toHaveValue("");
    await expect(page.getByRole("listbox", { name: "Search results" })).toHaveCount(0);

    // The panel hides after the box loses focus.
    await search();
    await page.keyboard.press("Tab");
    await expect(box).not.toBeFocused();
    await expect(page.getByRole("listbox", { name: "Search results" })).toHaveCount(0);
  } finally {
    await api.delete(`/api/servers/${serverId}`);
    await api.delete(`/api/users/${user.body.id}`);
    await api.delete(`/api/nodes/${node.body.id}`);
    await api.call("DELETE", `/api/templates/0/${template}`);
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });

  test("the users screens and the search fit a small screen", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!);
    const name = unique("phoneuser");
    const created = await api.post("/api/users", {
      username: name,
      email: `${name}.with.a.long.address@example.com`,
      password: "phone-password",
    });
    expect(created.status).toBe(200);
    try {
      await page.goto("/users");
      await login(page);
      await expect(page.getByTestId("user-list")).toBeVisible();
      await snap(page, "users-phone");
      await page.goto("/users/new");
      await expect(page.getByRole("button", { name: "Create user" })).toBeVisible();
      await snap(page, "user-create-phone");
      await page.goto(`/users/view/${created.body.id}`);
      await expect(page.getByTestId("user-scopes")).toBeVisible();
      await snap(page, "user-view-phone");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(360);

      await page.getByTestId("global-search").fill(name);
      const results = page.getByRole("listbox", { name: "Search results" });
      await expect(results).toBeVisible();
      const box = await results.boundingBox();
      expect(box?.x).toBe(0);
      expect(box?.width).toBe(360);
      // What the phone shows (the top of the page, where the panel is), not the whole page.
      await snap(page, "search-phone", { fullPage: false });
    } finally {
      await api.delete(`/api/users/${created.body.id}`);
    }
  });
});
