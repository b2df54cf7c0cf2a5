import { randomBytes } from "node:crypto";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, login, snap, unique } from "./helpers.ts";

// Each game has its own icon wherever templates and servers are shown (issue 27): the starter
// templates in the wizard and on the Templates page, and the server list names the game as well.

const STARTERS = {
  "custom-command": "terminal",
  factorio: "factorio",
  "minecraft-java": "minecraft-java",
  openttd: "openttd",
  terraria: "terraria",
} as const;

test("starter templates have their game's icon in the wizard and on the Templates page", async ({ page }) => {
  await page.goto("/servers/new");
  await login(page);
  const wizard = page.getByTestId("wizard-template");
  for (const [name, type] of Object.entries(STARTERS)) {
    const item = wizard.getByTestId("template-item").filter({ hasText: name });
    await expect(item.locator(".type-icon")).not.toHaveAttribute("data-type", "generic");
    await expect(item.locator(".type-icon")).toHaveAttribute(
      "data-type",
      name === "custom-command" ? "custom" : type,
    );
  }
  await page.goto("/templates");
  const starter = page
    .getByTestId("repo-section")
    .filter({ has: page.getByRole("heading", { name: /Starter/ }) });
  for (const name of Object.keys(STARTERS)) {
    const entry = starter.getByTestId("template-entry").filter({ hasText: name });
    await expect(entry.locator(".type-icon")).toBeVisible();
    await expect(entry.locator(".type-icon")).not.toHaveAttribute("data-type", "generic");
  }
  // Different games, different icons.
  const glyphs = await starter
    .locator(".type-icon path")
    .evaluateAll((paths) => new Set(paths.map((p) => p.getAttribute("d"))).size);
  expect(glyphs).toBe(Object.keys(STARTERS).length);
  await snap(page, "templates-game-icons");
});

test("the server list shows each server's game: its icon and its name", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const made: Record<string, string> = {};
  for (const [type, icon] of [
    ["openttd", "openttd"],
    ["terraria", "terraria"],
  ] as const) {
    const id = randomBytes(4).toString("hex");
    const name = unique(`game-${type}-`);
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition({ type, icon }),
      name,
      node: 0,
      users: [admin.username],
    });
    expect(created.status, created.text).toBe(200);
    made[name] = type;
  }
  await page.goto("/servers");
  await login(page);
  for (const [name, type] of Object.entries(made)) {
    // Found by name: in a whole run other specs' servers may fill the list's first page.
    await page.getByTestId("server-search").fill(name);
    const entry = page.getByTestId("server-entry").filter({ hasText: name });
    await expect(entry.locator(".type-icon")).toHaveAttribute("data-type", type);
    await expect(entry.getByTestId("server-game")).toHaveText(type === "openttd" ? "OpenTTD" : "Terraria");
  }
  await snap(page, "server-list-games");
});
