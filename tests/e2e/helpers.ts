import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { PanelClient } from "../support/http-client.ts";
import { admin } from "../support/panel-process.ts";
import { expect } from "./fixtures.ts";

export { admin };

const repoRoot = path.resolve(import.meta.dirname, "../..");
const shots = path.join(repoRoot, "test-results/screens");

/** Whether screenshots for people are taken: only with OUTPOST_SCREENSHOTS=1 (they cost every run time). */
export const screenshotsWanted = process.env.OUTPOST_SCREENSHOTS === "1";

/**
 * Saves a screenshot for a person to look at (test-results/screens/<name>.png), when
 * screenshotsWanted; otherwise does nothing, `before` included (say, a scroll that only frames
 * the picture). Whole page unless `fullPage: false` (what a phone shows at once).
 */
export async function snap(
  page: Page,
  name: string,
  opts: { fullPage?: boolean; before?: () => Promise<unknown> } = {},
): Promise<void> {
  if (!screenshotsWanted) return;
  await opts.before?.();
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/** snap, scrolled to the top first (the scroll only when a picture is taken). */
export const snapTop = (page: Page, name: string): Promise<void> =>
  snap(page, name, { before: () => page.evaluate(() => window.scrollTo(0, 0)) });

/** The page does not scroll sideways: nothing is wider than the window. */
export async function expectNoOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

export async function login(page: Page, email = admin.email, password = admin.password): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** The screen is in: its heading shows and no spinner is left in the main area (its data came). */
export async function screenReady(page: Page): Promise<void> {
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator("main .spinner")).toHaveCount(0);
}

/**
 * Waits until the signed-in account holds these preferences as this page keeps them locally,
 * i.e. what another device gets at sign-in (the page saves them to the panel in the background).
 */
export async function preferencesSaved(page: Page, keys: readonly string[]): Promise<void> {
  const local = await page.evaluate((ks) => ks.map((k) => localStorage.getItem(k)), keys);
  expect(local).not.toContain(null);
  await expect
    .poll(async () => {
      const res = await page.request.get("/api/userSettings");
      const stored = (await res.json()) as { key: string; value: string }[];
      return keys.map((k) => stored.find((s) => s.key === k)?.value ?? null);
    })
    .toEqual(local);
}

/**
 * A new browser context for a device of this width: below 600 px a phone (touch, 844 px tall),
 * else a desktop window 800 px tall. The caller closes it.
 */
export function deviceContext(
  browser: Browser,
  opts: { baseURL: string; locale: string; width: number; colorScheme?: "light" | "dark" },
): Promise<BrowserContext> {
  const phone = opts.width < 600;
  return browser.newContext({
    baseURL: opts.baseURL,
    locale: opts.locale,
    viewport: { width: opts.width, height: phone ? 844 : 800 },
    isMobile: phone,
    hasTouch: phone,
    colorScheme: opts.colorScheme,
  });
}

/** Signs in on the login screen shown, by its test ids (its labels are in the page's language). */
export async function signIn(page: Page, email = admin.email, password = admin.password): Promise<void> {
  await page.getByTestId("login-email").fill(email);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
}

/** Opens a page signed out and signs in as the administrator on the login screen it leads to (any locale). */
export async function visitAsAdmin(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await signIn(page);
}

/**
 * A message's translation (its msgstr), read from the catalogs the app is built from: `catalog`
 * first, then the other (what the signed-in shell says moved to the screens' catalog, issue 41).
 */
export function tr(locale: string, english: string, catalog: "screens" | "shell" = "screens"): string {
  for (const name of catalog === "shell" ? ["shell", "screens"] : ["screens", "shell"]) {
    const po = fs.readFileSync(path.join(repoRoot, "locales", locale, `${name}.po`), "utf8");
    const at = po.indexOf(`\nmsgid ${JSON.stringify(english)}\nmsgstr `);
    if (at >= 0) return JSON.parse(po.slice(at).split("\n")[2].slice("msgstr ".length));
  }
  throw new Error(`${english} is in neither ${locale}/shell.po nor ${locale}/screens.po`);
}

/** Acts as the administrator through the API, as the settings screen would. */
export async function adminApi(baseURL: string): Promise<PanelClient> {
  const client = new PanelClient(baseURL);
  const res = await client.login(admin.email, admin.password);
  expect(res.status).toBe(200);
  return client;
}

/** A fresh server id (8 hex digits, as the panel's wizard makes them). */
export const newServerId = (): string => randomBytes(4).toString("hex");

export const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/**
 * A fresh name that sorts before the names other specs use ("0-" first), for a server a spec must
 * find on the list's first page (sorted by name, 20 a page) while other specs' servers fill it.
 */
export const firstListed = (prefix: string) => unique(`0-${prefix}`);

/** A fresh registered user (registration is turned on through the admin API for it). */
export async function registerUser(baseURL: string, prefix = "user") {
  const api = await adminApi(baseURL);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  const name = unique(prefix);
  const user = { username: name, email: `${name}@example.com`, password: `${prefix}-password-1` };
  const client = new PanelClient(baseURL);
  await client.prime();
  expect((await client.post("/auth/register", user)).status).toBe(200);
  return user;
}

/**
 * The whole text of a CodeMirror editor whose editable area is `editor` (a template's JSON). It
 * draws only the lines near the viewport, so the text is read from its state, through the link
 * from its DOM to its view that CodeMirror's own EditorView.findFromDOM follows.
 */
export async function editorText(editor: Locator): Promise<string> {
  await expect(editor.locator(".cm-line").first()).toBeAttached();
  return editor.evaluate((el) => {
    const tile = (el as unknown as { cmTile?: { root?: { view?: { state: { doc: object } } } } }).cmTile;
    const doc = tile?.root?.view?.state.doc;
    if (!doc) throw new Error("not a CodeMirror editor");
    return doc.toString();
  });
}

/**
 * Waits until a template's JSON editor holds a document matching `expected`. The editor follows a
 * change made beside it (a form field, an import) after the page has drawn it, so a read at once
 * may still see the text before.
 */
export async function expectEditorJson(editor: Locator, expected: Record<string, unknown>): Promise<void> {
  const parsed = async () => {
    try {
      return JSON.parse(await editorText(editor)) as unknown;
    } catch {
      return undefined;
    }
  };
  await expect.poll(parsed).toMatchObject(expected);
}

/** Replaces a CodeMirror editor's text as a user would: select all, then type (paste) the new text. */
export async function setEditorText(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await editor.page().keyboard.press("ControlOrMeta+a");
  await editor.page().keyboard.insertText(text);
}
