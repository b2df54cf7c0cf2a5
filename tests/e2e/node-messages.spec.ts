import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, deviceContext, snap, tr, unique, visitAsAdmin } from "./helpers.ts";

// The node's own console lines in the page's language (issue 27): the node still writes English
// into the console (PufferPanel's client reads it as it is), every line through one table of codes
// (server/contract/node/console-messages.ts); this client reads the code back by that table and shows
// the line in German, Russian or Arabic, the foreign parts (a URL, a file, a command) quoted.

/** The words of an ICU plural translation's `which` case around its argument, `#` as `n`. */
function pluralWords(message: string, which: string, n: number): string {
  let at = message.indexOf(` ${which} {`) + which.length + 3;
  let depth = 1;
  let body = "";
  for (; depth > 0; at++) {
    const c = message[at];
    depth += c === "{" ? 1 : c === "}" ? -1 : 0;
    if (depth > 0) body += c;
  }
  const pieces = body.split("{archive}").map((p) => p.trim());
  return (pieces.sort((a, b) => b.length - a.length)[0] ?? "").replace("#", String(n));
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
    // A file to download, from a site on this machine.
    const site = http.createServer((_req, res) => res.end("downloaded text\n"));
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    const fileUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/readme.txt`;
    const id = randomBytes(4).toString("hex");
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition({
        install: [
          { type: "command", commands: ["echo installed-by-step"] },
          { type: "download", files: [fileUrl] },
          { type: "mkdir", target: "packed" },
          { type: "archive", source: ["readme.txt"], destination: "packed/one.zip" },
          { type: "extract", source: "packed/one.zip", destination: "unpacked" },
        ],
      }),
      name: unique("node-lines-"),
      node: 0,
      users: [admin.username],
    });
    expect(created.status, created.text).toBe(200);
    const context = await deviceContext(browser, { baseURL: baseURL!, locale, width });
    const page = await context.newPage();
    await visitAsAdmin(page, `/servers/view/${id}`);
    const output = page.getByTestId("console-output");
    // An install step's line: the node's words translated, the command quoted as it came.
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    const running = output
      .locator(".console-line-daemon")
      .filter({ has: page.locator("q", { hasText: "echo installed-by-step" }) });
    await expect(running).toHaveCount(1);
    await expect(running).toContainText(tr(catalog, "Running: {command}").split("{command}")[0].trim());
    await expect(output).not.toContainText("Executing:");
    // The download's lines: the URL and the file quoted, the words the page's.
    const downloaded = output.locator(".console-line-daemon").filter({ hasText: "readme.txt" });
    await expect(downloaded.filter({ has: page.locator("q", { hasText: fileUrl }) }).first()).toBeVisible();
    await expect(output).toContainText(tr(catalog, "Downloading {url}").split("{url}")[0].trim());
    await expect(output).not.toContainText("Downloading file");
    await expect(output).toContainText(tr(catalog, "Creating folder {folder}").split("{folder}")[0].trim());
    // A count in the page's plural: one entry archived, one extracted.
    const one = (english: string) => pluralWords(tr(catalog, english), "one", 1);
    const archivedOne = one(
      "{count, plural, one {Archived # entry into {archive}} other {Archived # entries into {archive}}}",
    );
    const extractedOne = one(
      "{count, plural, one {Extracted # entry from {archive}} other {Extracted # entries from {archive}}}",
    );
    await expect(output.locator(".console-line-daemon").filter({ hasText: archivedOne })).toHaveCount(1);
    await expect(output.locator(".console-line-daemon").filter({ hasText: extractedOne })).toHaveCount(1);
    await expect(output).not.toContainText("entries");
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
    expect(logs).toContain(`[DAEMON] Downloading file ${fileUrl}`);
    expect(logs).toContain("[DAEMON] Extracted 1 entry from packed/one.zip");
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
    site.close();
  });
}

// A task run's own lines (`[TASK] …`, issue: task lines) by the same table, in the run's output on
// the tasks screen: German on a desktop, Arabic on a phone; the API keeps the English.
for (const [locale, catalog, width] of [
  ["de-DE", "de_DE", 1280],
  ["ar-SA", "ar_SA", 390],
] as const) {
  test(`a task run's lines in ${locale} at ${width} px; the API keeps them in English`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const api = await adminApi(baseURL!);
    const id = randomBytes(4).toString("hex");
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      name: unique("task-lines-"),
      node: 0,
      users: [admin.username],
    });
    expect(created.status, created.text).toBe(200);
    const task = await api.post(`/api/servers/${id}/tasks`, {
      name: "Lines",
      operations: [
        { type: "start" },
        { type: "console", message: "hello-task" },
        { type: "stop" },
        { type: "command", commands: ["false"] },
      ],
    });
    expect(task.status, task.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/tasks/${task.body.id}/run`)).status).toBe(202);
    type Run = { finished: string | null; success: boolean; message: string; output: string };
    const runs = async () => (await api.get(`/api/servers/${id}/tasks/${task.body.id}/runs`)).body as Run[];
    await expect.poll(async () => (await runs())[0]?.finished ?? null, { timeout: 30_000 }).not.toBeNull();
    // What other clients read: the runner's English, as before.
    const [run] = await runs();
    expect(run.success).toBe(false);
    expect(run.output).toContain("[TASK] operation 1: start\n[TASK] server started\n");
    expect(run.output).toContain("[TASK] Sending to the console: hello-task\n");
    expect(run.output).toContain("[TASK] server stopped\n");
    expect(run.message).toMatch(/^operation 4 \(command\): /);
    expect(run.output).toContain(`[TASK] ${run.message}\n`);

    const phone = width < 600;
    const context = await browser.newContext({
      baseURL,
      locale,
      viewport: { width, height: phone ? 844 : 800 },
      isMobile: phone,
      hasTouch: phone,
    });
    const page = await context.newPage();
    await page.goto(`/servers/view/${id}#tasks`);
    await page.getByTestId("login-email").fill(admin.email);
    await page.getByTestId("login-password").fill(admin.password);
    await page.getByTestId("login-submit").click();
    const item = page.getByTestId("task-item").filter({ hasText: "Lines" });
    await item.locator("button[aria-expanded]").click();
    const shown = item.getByTestId("task-run").first();
    const output = shown.locator(".tk-output");
    const lines = output.locator(".tk-line-task");
    // Each of the runner's lines in the page's words, under the page's word for a task.
    await expect(lines).toHaveCount(run.output.split("\n").filter((l) => l.startsWith("[TASK] ")).length);
    await expect(lines.first()).toContainText(tr(catalog, "Task"));
    await expect(lines.first()).toContainText(
      tr(catalog, "Operation {number}: {type}")
        .replace("{number}", "1")
        .replace("{type}", tr(catalog, "Start the server")),
    );
    await expect(output).toContainText(tr(catalog, "Server started"));
    await expect(output).toContainText(tr(catalog, "Server stopped"));
    const sending = lines.filter({ has: page.locator("q", { hasText: "hello-task" }) });
    await expect(sending).toContainText(
      tr(catalog, "Sending to the console: {text}").split("{text}")[0].trim(),
    );
    // The failure: the words the page's, the system's reason quoted as it came; the run's message too.
    const failedWords = tr(catalog, "Operation {number} ({type}): {reason}")
      .replace("{number}", "4")
      .replace("{type}", tr(catalog, "Run a command"))
      .split("{reason}")[0]
      .trim();
    await expect(lines.last()).toContainText(failedWords);
    await expect(lines.last().locator("q")).toHaveText(run.message.replace(/^operation 4 \(command\): /, ""));
    await expect(shown.locator(".tk-message")).toContainText(failedWords);
    for (const english of ["operation", "server started", "server stopped", "Sending"])
      await expect(shown).not.toContainText(english);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await snap(page, `task-lines-${catalog}-${width}`);
    await context.close();
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  });
}
