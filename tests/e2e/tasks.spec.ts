import type { Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { consoleText } from "../support/server-console.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, registerUser, snap } from "./helpers.ts";

const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("tasks: a server user makes a scheduled task and a crash task, sees the next runs, runs one now and reads its output", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const user = await registerUser(baseURL!, "tasker");
  const id = newServerId();
  const created = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: "Task test", node: 0 });
  expect(created.status, created.text).toBe(200);
  const scopes = [
    "server.view",
    "server.console",
    // A task may do only what its author may do by hand: send a line, write a file.
    "server.console.send",
    "server.files.edit",
    "server.tasks.view",
    "server.tasks.create",
    "server.tasks.edit",
    "server.tasks.delete",
    "server.tasks.run",
  ];
  expect((await api.put(`/api/servers/${id}/user/${user.email}`, { scopes })).status).toBe(204);
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);

  await page.goto(`/servers/view/${id}#tasks`);
  await login(page, user.email, user.password);
  const section = page.locator("#section-tasks");
  await expect(page.getByRole("tab", { name: "Tasks" })).toHaveAttribute("aria-selected", "true");
  await expect(section).toContainText("No tasks yet.");

  // A scheduled task: the next five runs show as the schedule is typed.
  await section.getByRole("button", { name: "New task" }).click();
  const editor = section.getByTestId("task-editor");
  await editor.getByLabel("Name").fill("Greeting");
  await editor.getByLabel("Schedule (cron)").fill("*/5 * * * *");
  const next = editor.getByTestId("task-next-runs");
  await expect(next.locator("li")).toHaveCount(5);
  await expect(next).toContainText("not made up later");
  await editor.getByLabel("Line to send").fill("hello-from-ui");
  await snap(page, "tasks-editor-desktop");
  await editor.getByRole("button", { name: "Save" }).click();
  const greeting = section.getByTestId("task-item").filter({ hasText: "Greeting" });
  await expect(greeting).toBeVisible();
  await expect(greeting.getByTestId("task-next-run")).toContainText("Next run");

  // A crash task: an event, and an operation of another type.
  await section.getByRole("button", { name: "New task" }).click();
  await editor.getByLabel("Name").fill("After a crash");
  await editor.getByLabel("Trigger").selectOption("event");
  await editor.getByLabel("Event").selectOption("crashed");
  await editor.getByLabel("Operation type").selectOption("writefile");
  await editor.getByLabel("File").fill("crash-note.txt");
  await editor.getByLabel("Text").fill("seen");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(section.getByTestId("task-item").filter({ hasText: "After a crash" })).toContainText(
    "Server crashed",
  );

  // Run now: the line reaches the running server, and the run's output is shown.
  await greeting.getByRole("button", { name: "Run now" }).click();
  const run = greeting.getByTestId("task-run").first();
  await expect(run).toContainText("Succeeded");
  await expect(run.locator(".tk-output")).toContainText("Sending to the console: hello-from-ui");
  await expect.poll(() => consoleText(api, id)).toContain("pong hello-from-ui");
  await snap(page, "tasks-list-desktop");

  // On a phone it fits, without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator(".sidebar")).toBeHidden();
  expect(await noSideways(page)).toBeLessThanOrEqual(0);
  await snap(page, "tasks-list-phone");
  await section.getByRole("button", { name: "New task" }).click();
  await editor.getByLabel("Schedule (cron)").fill("@daily");
  await expect(next.locator("li")).toHaveCount(5);
  expect(await noSideways(page)).toBeLessThanOrEqual(0);
  await snap(page, "tasks-editor-phone");

  expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
});
