import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, deviceContext, snap, tr, unique, visitAsAdmin } from "./helpers.ts";

// The file manager's code editor (CodeMirror, issue 27): fetched only when a file is opened,
// highlighting by file name, search and replace (with a button, for phones), line numbers, the
// theme's colours, left to right on a right-to-left page, its own words in the page's language.

let api: PanelClient;
let serverId = "";

async function put(name: string, text: string) {
  const res = await fetch(`${api.baseUrl}/api/servers/${serverId}/file/${name}`, {
    method: "PUT",
    headers: {
      cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      "x-xsrf-token": api.cookies.get("XSRF-TOKEN") ?? "",
      "content-type": "application/octet-stream",
    },
    body: text,
  });
  expect(res.status).toBe(204);
}

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL!);
  serverId = randomBytes(4).toString("hex");
  const created = await api.put(`/api/servers/${serverId}`, {
    ...echoDefinition(),
    name: unique("editor-"),
    node: 0,
    users: [admin.username],
  });
  expect(created.status, created.text).toBe(200);
  await put("server.properties", "# Minecraft server properties\nmotd=A Minecraft Server\nmax-players=20\n");
  await put("config.yml", "difficulty: hard\nspawn:\n  x: 10\n");
  await put("notes.txt", "just words\n");
  await put("replace.properties", "level-name=world\nlevel-seed=world\n");
});

async function open(browser: Browser, baseURL: string, locale: string, width: number, dark = false) {
  const context = await deviceContext(browser, {
    baseURL,
    locale,
    width,
    colorScheme: dark ? "dark" : "light",
  });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await visitAsAdmin(page, `/servers/view/${serverId}#files`);
  await expect(page.getByTestId("file-manager")).toBeVisible();
  return { context, page, scripts };
}

const row = (page: Page, name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);
const editorText = (page: Page) => page.getByTestId("file-editor-text");

async function openFile(page: Page, name: string) {
  await row(page, name).getByRole("button", { name, exact: true }).click();
  await expect(editorText(page)).toBeVisible();
}

/** The colour each token of the first line shows in. */
const colours = (page: Page, line: number) =>
  page
    .locator(".cm-line")
    .nth(line)
    .locator("span")
    .evaluateAll((spans) => spans.map((s) => [s.textContent, getComputedStyle(s).color]));

test("CodeMirror is fetched only when a file is opened; highlighting follows the file name", async ({
  browser,
  baseURL,
}) => {
  const { context, page, scripts } = await open(browser, baseURL!, "en-US", 1280);
  await expect(row(page, "server.properties")).toBeVisible();
  expect(scripts.filter((s) => /codeEditor/.test(s))).toEqual([]);

  await openFile(page, "server.properties");
  expect(scripts.filter((s) => /codeEditor/.test(s))).toHaveLength(1);
  // Line numbers, and the comment, key and value each in a colour of their own.
  await expect(page.locator(".cm-lineNumbers .cm-gutterElement").filter({ hasText: /^3$/ })).toBeVisible();
  const comment = await colours(page, 0);
  expect(comment).toHaveLength(1);
  const pair = await colours(page, 1);
  expect(pair.length).toBeGreaterThanOrEqual(2);
  const body = await page.evaluate(() => getComputedStyle(document.body).color);
  expect(new Set([comment[0][1], ...pair.map((p) => p[1]), body]).size).toBeGreaterThanOrEqual(3);
  await snap(page, "code-editor-properties");

  await page.getByTestId("file-editor-close").click();
  await openFile(page, "config.yml");
  expect((await colours(page, 0)).length).toBeGreaterThanOrEqual(1);
  // Plain text stays plain.
  await page.getByTestId("file-editor-close").click();
  await openFile(page, "notes.txt");
  expect(await colours(page, 0)).toEqual([]);
  await context.close();
});

test("search and replace through the Find button, then saved", async ({ browser, baseURL }) => {
  const { context, page } = await open(browser, baseURL!, "en-US", 1280);
  await openFile(page, "replace.properties");
  await page.getByTestId("file-editor-search").click();
  const panel = page.locator(".cm-search");
  await expect(panel).toBeVisible();
  await panel.getByRole("textbox", { name: "Find" }).fill("world");
  await panel.getByRole("textbox", { name: "Replace" }).fill("survival");
  await panel.getByRole("button", { name: "replace all" }).click();
  await expect(page.getByTestId("file-editor-status")).toHaveText("Unsaved changes");
  await snap(page, "code-editor-search");
  await page.getByTestId("file-save").click();
  await expect(page.getByTestId("file-editor-status")).toHaveText("No changes");
  const stored = await api.get(`/api/servers/${serverId}/file/replace.properties`);
  expect(stored.text).toBe("level-name=survival\nlevel-seed=survival\n");
  await context.close();
});

test("the editor takes the dark theme's colours", async ({ browser, baseURL }) => {
  const background = async (dark: boolean) => {
    const { context, page } = await open(browser, baseURL!, "en-US", 1280, dark);
    await openFile(page, "server.properties");
    const [editor, surface] = await page
      .locator(".cm-editor")
      .evaluate((el) => [
        getComputedStyle(el).backgroundColor,
        getComputedStyle(el).getPropertyValue("--surface"),
      ]);
    if (dark) await snap(page, "code-editor-dark");
    await context.close();
    return { editor, surface };
  };
  const light = await background(false);
  const dark = await background(true);
  expect(dark.editor).not.toBe(light.editor);
  expect(dark.surface.trim()).not.toBe(light.surface.trim());
});

for (const locale of ["de-DE", "ru-RU", "ar-SA"]) {
  const catalog = locale.replace("-", "_");
  for (const width of [1280, 390]) {
    test(`the editor in ${locale} at ${width} px: its own words translated, text left to right, no sideways scroll`, async ({
      browser,
      baseURL,
    }) => {
      const { context, page } = await open(browser, baseURL!, locale, width);
      await openFile(page, "server.properties");
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(
        locale === "ar-SA" ? "rtl" : "ltr",
      );
      // Code reads left to right on every page.
      expect(await page.locator(".cm-editor").evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
      await page.getByTestId("file-editor-search").click();
      const panel = page.locator(".cm-search");
      await expect(panel.getByRole("textbox", { name: tr(catalog, "Find") })).toBeVisible();
      await expect(panel.getByRole("button", { name: tr(catalog, "replace all") })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snap(page, `code-editor-${locale}-${width}`);
      await context.close();
    });
  }
}
