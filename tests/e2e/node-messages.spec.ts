import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, snap, unique } from "./helpers.ts";

// The node's own console lines in the page's language (issue 27): the node still writes English
// into the console (PufferPanel's client reads it as it is); this client shows each known line by
// its code in German, Russian or Arabic, the rest as it came.

const repoRoot = path.resolve(import.meta.dirname, "../..");
function tr(locale: string, english: string): string {
  const po = fs.readFileSync(path.join(repoRoot, "locales", locale, "screens.po"), "utf8");
  const at = po.indexOf(`\nmsgid ${JSON.stringify(english)}\nmsgstr `);
  if (at < 0) throw new Error(`${english} is not in ${locale}/screens.po`);
  return JSON.parse(po.slice(at).split("\n")[2].slice("msgstr ".length));
}

for (const [locale, catalog, width] of [
  ["de-DE", "de_DE", 1280],
  ["ru-RU", "ru_RU", 390],
  ["ar-SA", "ar_SA", 390],
] as const) {
  test(`the node's console lines in ${locale} at ${width} px; the API keeps them in English`, async ({
    browser,
    baseURL,
  }) => {
    const api = await adminApi(baseURL!);
    const id = randomBytes(4).toString("hex");
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition({ install: [{ type: "command", commands: ["echo installed-by-step"] }] }),
      name: unique("node-lines-"),
      node: 0,
      users: [admin.username],
    });
    expect(created.status, created.text).toBe(200);
    const phone = width < 600;
    const context = await browser.newContext({
      baseURL,
      locale,
      viewport: { width, height: phone ? 844 : 800 },
      isMobile: phone,
      hasTouch: phone,
    });
    const page = await context.newPage();
    await page.goto(`/servers/view/${id}`);
    await page.getByTestId("login-email").fill(admin.email);
    await page.getByTestId("login-password").fill(admin.password);
    await page.getByTestId("login-submit").click();
    const output = page.getByTestId("console-output");
    // An install step's line: the node's words translated, the command quoted as it came.
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    const running = output.locator(".console-line-daemon").filter({ has: page.locator("q") });
    await expect(running.locator("q")).toHaveText("echo installed-by-step");
    await expect(running).toContainText(tr(catalog, "Running: {command}").split("{command}")[0].trim());
    await expect(output).not.toContainText("Executing:");
    await expect(page.getByTestId("action-start")).toBeVisible();
    await page.getByTestId("action-start").click();
    await expect(output).toContainText("ready hello on 25565");
    const starting = output
      .locator(".console-line-daemon")
      .filter({ hasText: tr(catalog, "Starting server") });
    await expect(starting).toHaveCount(1);
    await expect(output).not.toContainText("Starting server");
    await page.getByTestId("action-stop").click();
    await expect(output).toContainText(tr(catalog, "Server was told to stop"));
    await expect(output).toContainText(tr(catalog, "Server exited with code {code}").replace("{code}", "0"));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await snap(page, `node-lines-${catalog}-${width}`);
    await context.close();

    // What other clients read: the node's English, unchanged.
    const logs = Buffer.from((await api.get(`/api/servers/${id}/console`)).body.logs, "base64").toString();
    expect(logs).toContain("[DAEMON] Starting server");
    expect(logs).toContain("[DAEMON] Server was told to stop");
    expect(logs).toContain("[DAEMON] Executing: echo installed-by-step");
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  });
}
