import mysql from "mysql2/promise";
import { echoDefinition } from "../support/echo-template.ts";
import { type MariaDb, startMariaDb } from "../support/mariadb.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, newServerId, registerUser, snap, unique } from "./helpers.ts";

// Issue 36: an administrator adds a database host; a server's user makes a database on it and
// copies its connection string, at 1280 px and at 390 px.

let mariadb: MariaDb;
const panelPassword = "e2e-panel-host-pw";

test.beforeAll(async () => {
  mariadb = await startMariaDb();
  const root = await mysql.createConnection({ host: "127.0.0.1", port: mariadb.port, user: "root" });
  await root.query("CREATE USER 'panel'@'%' IDENTIFIED BY ?", [panelPassword]);
  await root.query("GRANT ALL PRIVILEGES ON *.* TO 'panel'@'%' WITH GRANT OPTION");
  await root.end();
});
test.afterAll(async () => {
  await mariadb?.stop();
});

test("an administrator adds a host; a server user adds a database and copies its connection string", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const api = await adminApi(baseURL!);
  const hostName = unique("maria-");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/database-hosts");
  await login(page);
  await page.getByTestId("database-host-add").click();
  const form = page.getByTestId("database-host-form");
  await form.getByLabel("Name", { exact: true }).fill(hostName);
  await form.getByLabel("Address").fill("127.0.0.1");
  await form.getByLabel("Port", { exact: true }).fill(String(mariadb.port));
  await form.getByLabel("User name").fill("panel");
  await form.getByLabel("Password", { exact: true }).fill(panelPassword);
  // Served to the panel's own node only: its servers may use it.
  await form.getByLabel("LocalNode").check();
  await snap(page, "database-hosts-form-desktop");
  await page.getByTestId("database-host-save").click();
  const entry = page.getByTestId("database-host").filter({ hasText: hostName });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText("LocalNode");
  await entry.getByTestId("database-host-test").click();
  await expect(page.getByRole("status").filter({ hasText: /answers: .*MariaDB/ })).toBeVisible();
  await snap(page, "database-hosts-desktop");
  const host = (await api.get("/api/database-hosts")).body.find((h: { name: string }) => h.name === hostName);

  // A server of a plain user, allowed one database.
  const user = await registerUser(baseURL!, "dbuser");
  const id = newServerId();
  const made = await api.put(`/api/servers/${id}`, {
    ...echoDefinition(),
    name: unique("db-server-"),
    node: 0,
    users: [user.username],
  });
  expect(made.status, made.text).toBe(200);
  expect((await api.put(`/api/servers/${id}/limits`, { databaseLimit: 1 })).status).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(entry).toBeVisible();
  await expectNoOverflow(page);
  await snap(page, "database-hosts-phone");

  await page.setViewportSize({ width: 1280, height: 900 });
  await context.clearCookies();
  await page.goto(`/servers/view/${id}#databases`);
  await login(page, user.email, user.password);
  await page.getByRole("tab", { name: "Databases" }).click();
  const section = page.getByTestId("databases");
  await expect(section.getByTestId("database-count")).toHaveText("Databases: 0 of 1");
  const create = section.getByTestId("database-create");
  await create.getByLabel("Database name").fill("world");
  if (await create.getByLabel("Host").isVisible())
    await create.getByLabel("Host").selectOption(String(host.id));
  await create.getByRole("button", { name: "Create database" }).click();
  const item = section.getByTestId("database-item");
  await expect(item).toContainText(`s${id}_world`);
  const jdbc = `jdbc:mysql://127.0.0.1:${mariadb.port}/s${id}_world`;
  await expect(item.getByTestId("database-jdbc")).toHaveValue(jdbc);
  await item.getByRole("button", { name: "Copy JDBC URL (Minecraft plugins)" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(jdbc);
  // The full string holds the password, and it signs in to the new database.
  const url = await item.getByTestId("database-url").inputValue();
  const login2 = new URL(url);
  const c = await mysql.createConnection({
    host: "127.0.0.1",
    port: mariadb.port,
    user: login2.username,
    password: login2.password,
    database: `s${id}_world`,
  });
  await c.end();
  // The limit reached, no form is offered.
  await expect(create).toHaveCount(0);
  await snap(page, "server-databases-desktop");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByRole("tab", { name: "Databases" }).click();
  await expect(item.getByTestId("database-url")).toHaveValue(url);
  await item.getByRole("button", { name: "Copy Connection string" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectNoOverflow(page);
  await snap(page, "server-databases-phone");

  // Deleting the server drops its database; then the host can go.
  expect((await api.delete(`/api/servers/${id}`)).status).toBeLessThan(300);
  expect((await api.delete(`/api/database-hosts/${host.id}`)).status).toBe(204);
});
