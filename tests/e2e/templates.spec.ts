import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import * as tar from "tar";
import { serveFolder } from "../support/static-server.ts";
import { expect, test } from "./fixtures.ts";
import {
  adminApi,
  editorText,
  expectEditorJson,
  expectNoOverflow,
  login,
  setEditorText,
  snap,
  snapTop,
  unique,
} from "./helpers.ts";

// The community template corpus, vendored in tests/fixtures/.
const corpus = path.resolve(import.meta.dirname, "../fixtures/pufferpanel-templates");

/** A full-page picture from the top (the fixed top bar would otherwise be drawn mid-page). */
/** No sideways scrolling: the page is no wider than the viewport it is shown in. */
const section = (page: Page, name: string | RegExp): Locator =>
  page.getByTestId("repo-section").filter({ has: page.getByRole("heading", { name }) });

/** A repository archive as a panel downloads one: a top folder with a folder per template. */
async function repoArchive(): Promise<{ dir: string; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-e2e-repo-"));
  const top = path.join(dir, "templates-main");
  for (const name of ["terraria-vanilla", "minecraft"]) {
    fs.mkdirSync(path.join(top, name), { recursive: true });
    fs.copyFileSync(path.join(corpus, name, `${name}.json`), path.join(top, name, `${name}.json`));
  }
  // The upstream repository's layout: spec.json beside the template folders.
  fs.copyFileSync(path.join(corpus, "spec.json"), path.join(top, "spec.json"));
  // A readme is shown as text: markup in it must not become page content.
  fs.writeFileSync(
    path.join(top, "terraria-vanilla", "README.md"),
    "# Terraria\n\nNeeds <b>port 7777</b> open.<img src=x onerror=\"document.title='pwned'\">\n",
  );
  await tar.c({ gzip: true, file: path.join(dir, "repo.tar.gz"), cwd: dir }, ["templates-main"]);
  return { dir, file: "repo.tar.gz" };
}

test("an admin sees each repository's state, writes a local template in the editor, saves, edits and deletes it", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/templates");
  await login(page);
  await expect(page).toHaveURL(/\/templates$/);

  // The community repository cannot be read offline: its error is on its own section; local lists.
  const community = section(page, "community");
  await expect(community.getByTestId("repo-error")).toContainText("could not be read");
  // When it was last tried, and a Retry that asks the panel to fetch it again at once.
  await expect(community.getByTestId("repo-error")).toContainText("Last tried");
  const retried = page.waitForResponse((r) => /\/api\/templates\/1\?retry=true$/.test(r.url()));
  await community.getByTestId("repo-retry").click();
  expect((await retried).status()).toBe(502);
  await expect(community.getByTestId("repo-error")).toContainText("could not be read");
  await expect(community).toContainText("github.com/pufferpanel/templates");
  const local = section(page, "Local templates");
  await expect(local).toBeVisible();
  await snapTop(page, "templates-list-offline-desktop");

  // New template: starts valid, from the smallest template.
  await page.getByRole("link", { name: "New template" }).click();
  await expect(page).toHaveURL(/\/templates\/new$/);
  const status = page.getByTestId("template-status");
  const json = page.getByTestId("template-json");
  const problems = page.getByTestId("template-problems");
  await expect(status).toHaveText("Valid template");
  expect(JSON.parse(await editorText(json))).toEqual({
    type: "",
    display: "",
    run: { command: "" },
    environment: { type: "host" },
    data: {},
    install: [],
  });

  const name = unique("e2e-tpl-");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Display name").fill("E2E Echo");
  await page.getByLabel("Server type").fill("echo");
  await page.getByLabel("Run command").fill("sh -c 'echo ${greeting}'");
  // The form writes into the JSON.
  await expectEditorJson(json, {
    display: "E2E Echo",
    type: "echo",
    run: { command: "sh -c 'echo ${greeting}'" },
  });

  // JSON typed by hand: a syntax error is placed by line and column, and the form waits for valid JSON.
  const good = await editorText(json);
  // Typed into the code editor (CodeMirror): JSON highlighting, line numbers.
  await setEditorText(json, good.replace('"type": "echo",', '"type": "echo"'));
  await expect(status).toHaveText("Not valid JSON");
  await expect(problems).toContainText(/Line 3, column 3.*A comma or \} is expected here/);
  await expect(page.getByLabel("Display name")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Create template" })).toBeDisabled();
  await snapTop(page, "template-create-syntax-desktop");

  // A value the JSON changes shows in the form.
  await setEditorText(json, good.replace('"E2E Echo"', '"E2E Echo from JSON"'));
  await expect(status).toHaveText("Valid template");
  await expect(page.getByLabel("Display name")).toHaveValue("E2E Echo from JSON");
  await page.getByLabel("Display name").fill("E2E Echo");

  // A broken field: the template module's problem is shown by path, in the list and at the field.
  await page.getByLabel("Stop signal").fill("TERM");
  await expect(status).toHaveText("Not a valid template");
  await expect(problems).toContainText("run.stopCode");
  await expect(problems).toContainText("expected an integer, got a string");
  await expect(page.getByText("expected an integer, got a string")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Create template" })).toBeDisabled();
  // Clicking the problem selects its place in the JSON.
  await problems.getByRole("button").first().click();
  await expect(json).toBeFocused();
  expect(await page.evaluate(() => document.getSelection()?.toString())).toBe('"stopCode": "TERM"');
  // Its bad line is marked in the gutter.
  await expect(page.locator(".json-editor .cm-gutterElement.cm-marked-line")).toHaveCount(1);
  await snapTop(page, "template-create-problem-desktop");
  await page.getByLabel("Stop signal").fill("15");
  await page.getByLabel("Stop command").fill("quit");
  await expect(status).toHaveText("Valid template");
  await expect(problems).toHaveCount(0);
  await snapTop(page, "template-create-desktop");

  // A name the panel would refuse is refused here first.
  await page.getByLabel("Name", { exact: true }).fill("bad/name");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Use letters, digits, dots, dashes and underscores only")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Template ${name} created` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/templates/view/0/${name}$`));
  await expect(page.getByTestId("template-title")).toHaveText("E2E Echo");

  const stored = (await api.get(`/api/templates/0/${name}`)).body;
  expect(stored).toMatchObject({
    name,
    type: "echo",
    display: "E2E Echo",
    run: { command: "sh -c 'echo ${greeting}'", stop: "quit", stopCode: 15 },
    environment: { type: "host" },
  });

  // Found in the list, by search too.
  await page.getByRole("link", { name: "Templates" }).first().click();
  await expect(page).toHaveURL(/\/templates$/);
  const entry = local.getByTestId("template-entry").filter({ hasText: name });
  await expect(entry).toContainText("E2E Echo");
  await expect(entry).toContainText("echo");
  const search = page.getByRole("searchbox", { name: "Search templates" });
  await search.fill("e2e ECHO");
  await expect(entry).toBeVisible();
  await search.fill("no-such-template-anywhere");
  await expect(local).toContainText("No template here matches the search.");
  await search.press("Escape");
  await expect(search).toHaveValue("");

  // Edit the display name, save; the JSON followed the form.
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/templates/view/0/${name}$`));
  const save = page.getByTestId("save-template");
  await expect(save).toBeDisabled();
  await page.getByLabel("Display name").fill("E2E Echo Renamed");
  await expectEditorJson(json, { display: "E2E Echo Renamed" });
  await expect(page.getByTestId("template-title")).toHaveText("E2E Echo Renamed");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: `Template ${name} saved` })).toBeVisible();
  await expect(save).toBeDisabled();
  expect((await api.get(`/api/templates/0/${name}`)).body.display).toBe("E2E Echo Renamed");
  await expectNoOverflow(page);
  await snapTop(page, "template-edit-desktop");

  // Delete, through the confirm dialog.
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(`Delete template ${name}?`);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Template ${name} deleted` })).toBeVisible();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(section(page, "Local templates")).toBeVisible();
  await expect(page.getByTestId("template-entry").filter({ hasText: name })).toHaveCount(0);
  expect((await api.get(`/api/templates/0/${name}`)).status).toBe(404);
});

test("an admin adds a repository by URL, reads its templates, copies one to local and removes the repository", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const { dir, file } = await repoArchive();
  const server = await serveFolder(dir);
  const repoName = unique("e2e-repo-");
  const copyName = unique("e2e-copy-");
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/templates");
    await login(page);

    await page.getByRole("button", { name: "Add repository" }).click();
    const dialog = page.getByTestId("add-repo-dialog");
    await dialog.getByLabel("Name").fill(repoName);
    await dialog.getByLabel("URL").fill("ftp://example.com/repo");
    await dialog.getByRole("button", { name: "Add repository" }).click();
    await expect(dialog.getByText("URL is not valid")).toBeVisible();
    await dialog.getByLabel("URL").fill(`${server.url}/${file}`);
    await snap(page, "template-add-repo-desktop");
    await dialog.getByRole("button", { name: "Add repository" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Repository ${repoName} added` })).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // Its templates list, between the other repositories and the local one.
    const repo = section(page, repoName);
    const entries = repo.getByTestId("template-entry");
    await expect(entries).toHaveCount(2);
    await expect(entries.filter({ hasText: "terraria-vanilla" })).toContainText("Terraria - Vanila");
    await expect(repo).toContainText(`${server.url}/${file}`);
    const order = await page
      .getByTestId("repo-section")
      .evaluateAll((els) => els.map((e) => e.querySelector("h2")?.textContent ?? ""));
    expect(order.at(-1)).toContain("Local templates");
    expect(order.indexOf(order.find((h) => h.includes(repoName))!)).toBe(order.length - 2);

    // Search across repositories by display name; list layout.
    await page.getByRole("searchbox", { name: "Search templates" }).fill("vanila");
    await expect(entries).toHaveCount(1);
    await page.getByRole("button", { name: "List", exact: true }).click();
    await snapTop(page, "templates-list-search-desktop");
    await page.getByRole("button", { name: "Grid", exact: true }).click();
    await page.getByRole("searchbox", { name: "Search templates" }).fill("");
    await snapTop(page, "templates-list-desktop");

    // A repository template is read-only.
    await entries.filter({ hasText: "terraria-vanilla" }).click();
    await expect(page).toHaveURL(/\/templates\/view\/\d+\/terraria-vanilla$/);
    await expect(page.getByTestId("template-title")).toHaveText("Terraria - Vanila");
    await expect(page.getByTestId("detail-type")).toHaveText("terraria");
    await expect(page.getByTestId("variables")).toContainText("Difficulty");
    await expect(page.getByTestId("variables")).toContainText("Choices: Normal (0)");
    await expect(page.getByTestId("install-steps").locator("li").first()).toBeVisible();
    await expect(page.getByTestId("run-command").first()).not.toBeEmpty();
    await expect(page.getByTestId("template-json")).toHaveCount(0);
    const readme = page.getByTestId("template-readme");
    await expect(readme).toContainText("Needs <b>port 7777</b> open.<img src=x");
    await expect(readme.locator("b, img")).toHaveCount(0);
    expect(await page.title()).not.toBe("pwned");
    await expectNoOverflow(page);
    await snapTop(page, "template-view-desktop");

    // A template with conditional run commands shows each with its condition.
    await page.goBack();
    await entries.filter({ hasText: "minecraft" }).click();
    await expect(page.getByTestId("run-command")).toHaveCount(8);
    await expect(page.getByText("When env == 'host' && modlauncher == 'fabric'")).toBeVisible();

    // Copy to local: the copy opens in the editor; the conditional command is left to the JSON.
    await page.getByRole("button", { name: "Copy to local" }).click();
    const copy = page.getByTestId("copy-dialog");
    await expect(copy.getByLabel("Name of the copy")).toHaveValue("minecraft");
    await copy.getByLabel("Name of the copy").fill(copyName);
    await copy.getByRole("button", { name: "Copy" }).click();
    await expect(page).toHaveURL(new RegExp(`/templates/view/0/${copyName}$`));
    await expect(page.getByTestId("template-status")).toHaveText("Valid template");
    await expect(page.getByLabel("Run command")).toHaveJSProperty("readOnly", true);
    await expect(page.getByText("edit the list in the JSON")).toBeVisible();
    const copied = (await api.get(`/api/templates/0/${copyName}`)).body;
    expect(copied.display).toBe("Minecraft: Java Edition");
    expect(copied.readme).toBeUndefined();

    // Remove the repository through the confirm dialog.
    await page.getByRole("link", { name: "Templates" }).first().click();
    await section(page, repoName)
      .getByRole("button", { name: `Remove repository ${repoName}` })
      .click();
    const confirm = page.getByTestId("confirm-dialog");
    await expect(confirm).toContainText(`Remove repository ${repoName}?`);
    await confirm.getByRole("button", { name: "Remove" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `Repository ${repoName} removed` }),
    ).toBeVisible();
    await expect(section(page, repoName)).toHaveCount(0);
    const repos = (await api.get("/api/templates")).body as { name: string }[];
    expect(repos.map((r) => r.name)).not.toContain(repoName);
  } finally {
    await api.call("DELETE", `/api/templates/0/${copyName}`);
    const repos = (await api.get("/api/templates")).body as { id: number; name: string }[];
    const left = repos.find((r) => r.name === repoName);
    if (left) await api.call("DELETE", `/api/templates/${left.id}`);
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the list, a repository template and the editor fit 390 px", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!);
    const { dir, file } = await repoArchive();
    const server = await serveFolder(dir);
    const repoName = unique("e2e-phone-");
    const name = unique("e2e-phone-tpl-");
    try {
      const added = await api.call("POST", "/api/templates", {
        json: { name: repoName, url: `${server.url}/${file}` },
      });
      expect(added.status).toBe(200);
      const put = await api.call("PUT", `/api/templates/0/${name}`, {
        json: {
          type: "echo",
          display: "Phone Echo",
          run: { command: "sh -c 'echo ${greeting}'", stop: "quit" },
          environment: { type: "host" },
          data: { greeting: { type: "string", value: "hi", display: "Greeting", required: true } },
          install: [{ type: "writefile", target: "motd.txt", text: "${greeting}" }],
        },
      });
      expect(put.status).toBe(204);

      await page.goto("/templates");
      await login(page);
      await expect(section(page, repoName).getByTestId("template-entry")).toHaveCount(2);
      await expect(section(page, "community").getByTestId("repo-error")).toBeVisible();
      await expectNoOverflow(page);
      await snapTop(page, "templates-list-phone");

      await section(page, repoName).getByTestId("template-entry").filter({ hasText: "terraria" }).click();
      await expect(page.getByTestId("variables")).toContainText("Difficulty");
      await expectNoOverflow(page);
      await snapTop(page, "template-view-phone");

      await page.goto(`/templates/view/0/${name}`);
      await expect(page.getByTestId("template-status")).toHaveText("Valid template");
      await page.getByLabel("Stop signal").fill("x");
      await expect(page.getByTestId("template-problems")).toContainText("run.stopCode");
      await expectNoOverflow(page);
      await snapTop(page, "template-edit-phone");

      // Unsaved changes: leaving the page asks first.
      const asked = page.waitForEvent("dialog");
      const leaving = page.goto("/templates/new");
      const dialog = await asked;
      expect(dialog.type()).toBe("beforeunload");
      await dialog.accept();
      await leaving;
      await expect(page.getByTestId("template-status")).toHaveText("Valid template");
      await expectNoOverflow(page);
      await snapTop(page, "template-create-phone");
    } finally {
      await api.call("DELETE", `/api/templates/0/${name}`);
      const repos = (await api.get("/api/templates")).body as { id: number; name: string }[];
      const left = repos.find((r) => r.name === repoName);
      if (left) await api.call("DELETE", `/api/templates/${left.id}`);
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
