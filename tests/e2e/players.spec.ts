import { echoDefinition } from "../support/echo-template.ts";
import { fakeGameDefinition, fakeGameScript } from "../support/fake-game.ts";
import { fakeMinecraft, minecraftStatus } from "../support/fake-minecraft.ts";
import { upload } from "../support/file-requests.ts";
import { consoleText } from "../support/server-console.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, newServerId, registerUser, snap, unique } from "./helpers.ts";

// A server's user manages players from the Players section (issue 37) against a game-like
// program written for the test (a Node script that answers Minecraft's console commands and
// keeps its lists in whitelist.json, ops.json and banned-players.json): the kick reaches its
// console, the whitelist and operators come back from its files, at 1280 px and at 390 px.
test("a server user kicks, whitelists and ops players from the Players section", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL!);
  const query = await fakeMinecraft(minecraftStatus);
  const user = await registerUser(baseURL!, "playeruser");
  const id = newServerId();
  const definition = fakeGameDefinition();
  definition.data.port.value = query.port;
  const made = await api.put(`/api/servers/${id}`, {
    ...definition,
    name: unique("players-"),
    node: 0,
    users: [user.username],
  });
  expect(made.status, made.text).toBe(200);
  expect((await upload(api, `/api/servers/${id}/file/game.js`, fakeGameScript)).status).toBe(204);
  expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
  const gameSaid = (text: string) =>
    expect.poll(() => consoleText(api, id), { timeout: 10_000, intervals: [200] }).toContain(text);

  try {
    await page.goto(`/servers/view/${id}#query`);
    await login(page, user.email, user.password);
    const section = page.locator("#section-query");
    const manager = section.getByTestId("players-manager");
    await expect(section.getByTestId("query-count")).toContainText("2 / 20");
    // Choosing an online player fills the name; the kick goes with its reason.
    await manager.getByRole("button", { name: "Steve", exact: true }).click();
    await expect(manager.getByLabel("Player name")).toHaveValue("Steve");
    await manager.getByLabel("Reason (optional)").fill("spamming chat");
    await manager.getByRole("button", { name: "Kick", exact: true }).click();
    await expect(page.getByText("Sent to the game: Steve")).toBeVisible();
    await gameSaid("Kicked Steve: spamming chat");
    await expect(manager.getByLabel("Reason (optional)")).toHaveValue("");
    await snap(page, "players-kick-desktop");

    // A name the game would not take is stopped before it is sent.
    await manager.getByLabel("Player name").fill("x; op me");
    await expect(manager.getByText("This game does not accept such a name.")).toBeVisible();
    await expect(manager.getByRole("button", { name: "Kick", exact: true })).toBeDisabled();

    await page.setViewportSize({ width: 390, height: 844 });
    await manager.getByLabel("Player name").fill("Alex");
    await manager.getByRole("button", { name: "Add to whitelist" }).click();
    await gameSaid("Added Alex to the whitelist");
    await manager.getByRole("button", { name: "Make operator" }).click();
    await gameSaid("Made Alex a server operator");
    await expect(manager.getByTestId("players-whitelist")).toContainText("Alex", { timeout: 10_000 });
    await expect(manager.getByTestId("players-ops")).toContainText("Alex", { timeout: 10_000 });
    await manager.getByLabel("Player name").fill("griefer");
    await manager.getByLabel("Reason (optional)").fill("lava everywhere");
    await manager.getByRole("button", { name: "Ban", exact: true }).click();
    await expect(manager.getByTestId("players-bans")).toContainText("lava everywhere", { timeout: 10_000 });
    // Kicking on a phone too.
    await manager.getByRole("button", { name: "Alex", exact: true }).click();
    await manager.getByRole("button", { name: "Kick", exact: true }).click();
    await gameSaid("Kicked Alex: Kicked by an operator");
    await expectNoOverflow(page);
    await snap(page, "players-lists-phone");

    await manager.getByRole("button", { name: "Remove operator: Alex" }).click();
    await gameSaid("Made Alex no longer a server operator");
    await expect(manager.getByTestId("players-ops")).toContainText("Nobody is on this list.", {
      timeout: 10_000,
    });

    expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(true);
  } finally {
    await api.post(`/api/servers/${id}/kill`);
    await query.close();
  }
});

// The hang watchdog's option (issue 37) in the server's settings, beside the start and restart
// switches: off (0) until an administrator sets how many failed queries in a row restart it.
test("an administrator turns the hang watchdog on, on a phone", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const made = await api.put(`/api/servers/${id}`, {
    ...echoDefinition(),
    name: unique("watchdog-"),
    node: 0,
  });
  expect(made.status, made.text).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/servers/view/${id}#settings`);
  await login(page);
  const watchdog = page.getByTestId("server-watchdog");
  await expect(watchdog.getByLabel("Restart when it stops answering")).toHaveValue("0");
  await watchdog.getByLabel("Restart when it stops answering").fill("3");
  await watchdog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  expect((await api.get(`/api/servers/${id}/flags`)).body.unresponsiveRestartAfter).toBe(3);
  await expectNoOverflow(page);
  await snap(page, "players-watchdog-phone", {
    fullPage: false,
    before: () => watchdog.scrollIntoViewIfNeeded(),
  });
});
