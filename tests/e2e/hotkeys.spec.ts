import type { Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, unique } from "./helpers.ts";

// Contextual hotkeys (spec §2.2, issue 11): each screen's keys do what the help dialog lists
// under "This page".

/** The help dialog's "This page" section lists these labels. */
async function helpLists(page: Page, labels: string[]): Promise<void> {
  await page.keyboard.press("?");
  const help = page.getByTestId("hotkey-help");
  await expect(help).toBeVisible();
  const thisPage = help.locator("section", { has: page.getByRole("heading", { name: "This page" }) });
  for (const label of labels) {
    await expect(thisPage.locator("dd").filter({ hasText: new RegExp(`^${label}$`) })).toHaveCount(1);
  }
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);
}

const focusedEntry = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("href") ?? document.activeElement?.tagName);

test("lists: j / k move between entries, o opens, Shift+N starts a new one", async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const ids = [newServerId(), newServerId()];
  for (const id of ids) {
    expect(
      (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: unique("keys-"), node: 0 })).status,
    ).toBe(200);
  }

  await page.goto("/servers");
  await login(page);
  await expect(page.getByTestId("server-entry").nth(1)).toBeVisible();
  await helpLists(page, ["Next item", "Previous item", "Open", "New server"]);
  const links = await page
    .locator("[data-list-entry]")
    .evaluateAll((all) => all.map((a) => a.getAttribute("href")));
  await page.keyboard.press("j");
  expect(await focusedEntry(page)).toBe(links[0]);
  await page.keyboard.press("j");
  expect(await focusedEntry(page)).toBe(links[1]);
  await page.keyboard.press("k");
  expect(await focusedEntry(page)).toBe(links[0]);
  await page.keyboard.press("o");
  await expect(page).toHaveURL(new RegExp(`${links[0]}$`));
  await page.goto("/servers");
  await expect(page.getByTestId("server-entry").first()).toBeVisible();
  await page.keyboard.press("Shift+N");
  await expect(page).toHaveURL(/\/servers\/new$/);

  for (const [path, entry, create, target] of [
    ["/nodes", "node-entry", "New node", /\/nodes\/new$/],
    ["/users", "user-entry", "New user", /\/users\/new$/],
    ["/templates", "template-entry", "New template", /\/templates\/new$/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId(entry).first()).toBeVisible();
    await helpLists(page, ["Next item", "Previous item", "Open", create]);
    const first = await page.locator("[data-list-entry]").first().getAttribute("href");
    await page.keyboard.press("j");
    expect(await focusedEntry(page)).toBe(first);
    await page.keyboard.press("o");
    await expect(page).toHaveURL(new RegExp(`${first!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    await page.goto(path);
    await expect(page.getByTestId(entry).first()).toBeVisible();
    await page.keyboard.press("Shift+N");
    await expect(page).toHaveURL(target);
  }

  for (const id of ids) expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

test("server view: Shift+S/T/R/K run the lifecycle, numbers switch sections, i goes to the command line", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL!);
  const id = newServerId();
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: unique("keys-view-"), node: 0 }))
      .status,
  ).toBe(200);
  await page.goto(`/servers/view/${id}`);
  await login(page);
  const status = page.locator(".lifecycle .status");
  await expect(status).toHaveAttribute("data-status", "offline");
  await helpLists(page, ["Start", "Console", "Settings", "Type a command"]);

  await page.keyboard.press("Shift+S");
  await expect(status).toHaveAttribute("data-status", "online");
  const output = page.getByTestId("console-output");
  await expect(output).toContainText("ready hello on 25565");

  await page.keyboard.press("i");
  await expect(page.getByTestId("console-input")).toBeFocused();
  // The key that moved the cursor is not typed.
  await expect(page.getByTestId("console-input")).toHaveValue("");
  await page.keyboard.type("from the keyboard");
  await page.keyboard.press("Enter");
  await expect(output).toContainText("pong from the keyboard");
  await page.getByTestId("server-title").click();

  await page.keyboard.press("2");
  await expect(page.getByRole("tab", { name: "Settings" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("1");
  await expect(page.getByRole("tab", { name: "Console" })).toHaveAttribute("aria-selected", "true");
  // From another section, i comes back to the console.
  await page.keyboard.press("2");
  await page.keyboard.press("i");
  await expect(page.getByTestId("console-input")).toBeFocused();
  await page.getByTestId("server-title").click();

  await helpLists(page, ["Stop", "Kill", "Restart"]);
  // Restart: a clean stop ("bye"), then a fresh start.
  await page.keyboard.press("Shift+R");
  await expect(output).toContainText("bye");
  await expect.poll(async () => ((await output.textContent()) ?? "").split("ready hello").length - 1).toBe(2);
  await expect(status).toHaveAttribute("data-status", "online");

  // Kill asks first; cancelled, the server keeps running.
  await page.keyboard.press("Shift+K");
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(status).toHaveAttribute("data-status", "online");

  await page.keyboard.press("Shift+T");
  await expect(status).toHaveAttribute("data-status", "offline");
  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

test("file manager: Backspace goes up, Shift+F / Shift+N make a folder / file, Delete removes the selection after asking", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: unique("keys-files-"), node: 0 }))
      .status,
  ).toBe(200);
  const row = (name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);
  await page.goto(`/servers/view/${id}#files`);
  await login(page);
  await expect(page.getByTestId("file-manager")).toBeVisible();
  await helpLists(page, ["Up one folder", "New file", "New folder", "Delete"]);

  await page.keyboard.press("Shift+F");
  const folderDialog = page.getByTestId("new-folder-dialog");
  await folderDialog.getByLabel("Folder name").fill("made-by-key");
  await folderDialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(row("made-by-key")).toBeVisible();

  await row("made-by-key").getByRole("button", { name: "made-by-key", exact: true }).click();
  await expect(page).toHaveURL(/\?path=\/made-by-key#files$/);
  await page.keyboard.press("Shift+N");
  await expect(page.getByTestId("new-file-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("new-file-dialog")).toHaveCount(0);
  await page.keyboard.press("Backspace");
  await expect(page).not.toHaveURL(/path=/);
  await expect(row("made-by-key")).toBeVisible();

  await row("made-by-key").getByRole("checkbox", { name: "Select made-by-key" }).check();
  await page.keyboard.press("Delete");
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("Delete made-by-key?");
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(row("made-by-key")).toHaveCount(0);
  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

test("signed out, ? still opens the hotkey help (the hotkey library loads only once signed in)", async ({
  page,
}) => {
  await page.goto("/auth/login");
  const email = page.getByLabel("Email");
  await email.fill("a?b");
  await expect(page.getByTestId("hotkey-help")).toHaveCount(0);
  await email.blur();
  await page.keyboard.press("?");
  const help = page.getByTestId("hotkey-help");
  await expect(help).toBeVisible();
  await expect(help.getByText("There are no hotkeys on this page.")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);
  await expect(email).toHaveValue("a?b");
});
