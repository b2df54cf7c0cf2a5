import type { Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { consoleText } from "../support/server-console.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, newServerId, registerUser, snap } from "./helpers.ts";

/**
 * A server whose install writes its state file from the `motd` variable
 * (and a 64 MB file of random bytes, so a backup takes long enough to watch),
 * and whose run prints that file: what a restore brought back shows on the
 * console.
 */
function stateful({ big = true } = {}) {
  return echoDefinition({
    install: [
      { type: "writefile", target: "state.txt", text: "state ${motd}" },
      { type: "mkdir", target: "world/region" },
      { type: "writefile", target: "world/region/r.0.0.mca", text: "region of ${motd}" },
      ...(big
        ? [{ type: "command", commands: ["sh -c 'head -c 64000000 /dev/urandom > world/big.bin'"] }]
        : []),
    ],
    run: {
      command: `sh -c 'cat state.txt; echo; while read line; do [ "$line" = stop ] && exit 0; done'`,
      stop: "stop",
    },
  });
}

/** A phone's viewport, once the sidebar has slid away. */
async function toPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator(".sidebar")).toBeHidden();
}

test("backups: create one and watch it finish, restore it over changed files, delete it", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const created = await api.put(`/api/servers/${id}`, { ...stateful(), name: "Backup test", node: 0 });
  expect(created.status, created.text).toBe(200);
  expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);

  await page.goto(`/servers/view/${id}#backups`);
  await login(page);
  const section = page.locator("#section-backups");
  await expect(page.getByRole("tab", { name: "Backups" })).toHaveAttribute("aria-selected", "true");
  await expect(section).toContainText("No backups yet.");
  await snap(page, "backups-empty-desktop");

  // Created with a name of our own; it shows as being written, with its bytes so far, then ready.
  await section.getByLabel("Backup name").fill("before the change");
  await section.getByRole("button", { name: "Create backup" }).click();
  const item = section.getByTestId("backup-item").filter({ hasText: "before the change" });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute("data-state", "creating");
  await expect(item.getByTestId("backup-written")).toContainText(/written/);
  await expect(item.getByRole("progressbar")).toBeVisible();
  await toPhone(page);
  await snap(page, "backups-creating-phone");
  await expect(item).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(item).toContainText(/\d+(\.\d)? MB/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "backups-ready-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The download link is the API's, for this backup.
  const [backup] = (await api.get(`/api/servers/${id}/backup`)).body;
  await expect(item.getByTestId("backup-download")).toHaveAttribute(
    "href",
    `/api/servers/${id}/backup/download/${backup.id}`,
  );

  // Verified: the toast says so and the item shows when. Pinned: it says so.
  await item.getByTestId("backup-verify").click();
  await expect(page.getByTestId("toast").filter({ hasText: "The backup is intact" })).toBeVisible();
  await expect(item.getByTestId("backup-verification")).toContainText("Verified");
  await item.getByTestId("backup-pin").click();
  await expect(item.getByTestId("backup-pinned")).toBeVisible();
  await expect(item.getByTestId("backup-pin")).toHaveText("Unpin");
  await expect(section.getByTestId("backup-policy")).toContainText("Backup policy");
  await snap(page, "backups-verified-pinned-desktop");

  // The files change (a new install with another motd), then the backup's come back over the
  // running server: the confirmation says it is stopped first.
  expect((await api.post(`/api/servers/${id}/data`, { data: { motd: { value: "changed" } } })).status).toBe(
    204,
  );
  expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  await item.getByTestId("backup-restore").click();
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("current files are replaced");
  await expect(confirm).toContainText("A running server is stopped first.");
  await snap(page, "backups-restore-confirm-desktop");
  await confirm.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Backup restored" })).toBeVisible({
    timeout: 60_000,
  });
  expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(false);
  const printed = async () => [...(await consoleText(api, id)).matchAll(/state (\w+)/g)].map((m) => m[1]);
  const before = (await printed()).length;
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  await expect.poll(async () => (await printed()).slice(before), { timeout: 15_000 }).toEqual(["hello"]);
  expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);

  // Deleted after a confirm: gone from the list and from the API.
  await item.getByTestId("backup-delete").click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Delete" }).click();
  await expect(section).toContainText("No backups yet.");
  expect((await api.get(`/api/servers/${id}/backup`)).body).toEqual([]);
  await toPhone(page);
  await snap(page, "backups-empty-phone");

  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

for (const phone of [false, true]) {
  test(`backups: a server user opens a backup's files and restores one file alone${phone ? " (390 px)" : ""}`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const api = await adminApi(baseURL!);
    const id = newServerId();
    const created = await api.put(`/api/servers/${id}`, {
      ...stateful({ big: false }),
      name: "Files test",
      node: 0,
    });
    expect(created.status, created.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/backup/create?name=inside`)).status).toBe(204);
    await expect
      .poll(async () => (await api.get(`/api/servers/${id}/backup`)).body[0]?.state, { timeout: 60_000 })
      .toBe("ready");

    // Both files change; only state.txt is to come back.
    expect((await api.post(`/api/servers/${id}/data`, { data: { motd: { value: "changed" } } })).status).toBe(
      204,
    );
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    const file = async (name: string) => (await api.get(`/api/servers/${id}/file/${name}`)).text;
    expect(await file("state.txt")).toBe("state changed");

    const user = await registerUser(baseURL!, "bkfiles");
    const grant = (scopes: string[]) =>
      api.put(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { scopes });
    expect((await grant(["server.view", "server.backup.view"])).status).toBe(204);
    if (phone) await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/servers/view/${id}#backups`);
    await login(page, user.email, user.password);
    const section = page.locator("#section-backups");
    const item = section.getByTestId("backup-item").filter({ hasText: "inside" });

    // Without server.backup.restore the files are shown, nothing can be ticked or restored.
    await expect(item.getByTestId("backup-restore")).toHaveCount(0);
    await item.getByTestId("backup-files-open").click();
    let view = page.getByTestId("backup-files");
    await expect(view.getByTestId("backup-file").first()).toBeVisible();
    await expect(view.getByRole("checkbox")).toHaveCount(0);
    await expect(view.getByTestId("backup-restore-selected")).toHaveCount(0);
    await view.getByRole("button", { name: "Close" }).click();
    await expect(view).toBeHidden();

    expect((await grant(["server.view", "server.backup.view", "server.backup.restore"])).status).toBe(204);
    await page.reload();
    await item.getByTestId("backup-files-open").click();
    view = page.getByTestId("backup-files");
    // Folders first, then files with their sizes.
    const rows = view.getByTestId("backup-file");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute("data-path", "world");
    await expect(rows.nth(1)).toHaveAttribute("data-path", "state.txt");
    await expect(rows.nth(1)).toContainText("11 bytes");
    await view.getByRole("button", { name: "Expand world" }).click();
    await expect(view.locator('[data-path="world/region"]')).toBeVisible();
    await view.getByRole("button", { name: "Expand region" }).click();
    await expect(view.locator('[data-path="world/region/r.0.0.mca"]')).toBeVisible();
    await expect(view.getByTestId("backup-restore-selected")).toBeDisabled();
    await view.locator('[data-path="state.txt"]').getByRole("checkbox").check();
    await expect(view).toContainText("Selected: 1");
    if (phone) await expectNoOverflow(page);
    await snap(page, `backup-files-${phone ? "phone" : "desktop"}`, { fullPage: false });

    // A running server is stopped for it, and the confirmation says so and names what is replaced.
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await view.getByTestId("backup-restore-selected").click();
    const confirm = page.getByTestId("confirm-dialog");
    await expect(confirm).toContainText("Only these files and folders are replaced");
    await expect(confirm).toContainText("state.txt");
    await expect(confirm).toContainText("A running server is stopped first.");
    await snap(page, `backup-files-confirm-${phone ? "phone" : "desktop"}`, { fullPage: false });
    await confirm.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Selected files restored" })).toBeVisible({
      timeout: 60_000,
    });
    expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(false);
    expect(await file("state.txt")).toBe("state hello");
    expect(await file("world/region/r.0.0.mca")).toBe("region of changed");

    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  });
}
