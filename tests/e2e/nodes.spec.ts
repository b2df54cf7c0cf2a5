import type { DaemonConfig } from "../../server/daemon/config.ts";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { freePort } from "../support/free-port.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, snap, snapTop, unique } from "./helpers.ts";

/** The deployment command: fetch the daemon bundle from the panel with the saved config's secret, start it. */
const command = (panelUrl: string) =>
  [
    "mkdir -p /opt/outpost",
    `curl -fsS -H "Authorization: Bearer $(node -p "require('/etc/outpost/node.json').secret")" -o /opt/outpost/outpost-daemon.mjs ${panelUrl}/daemon/bundle`,
    "node /opt/outpost/outpost-daemon.mjs --config /etc/outpost/node.json",
  ].join(" && \\\n  ");

/** A full-page picture from the top (the fixed top bar would otherwise be drawn mid-page). */
/** No sideways scrolling: the page fits the viewport it is shown in. */
test("an admin creates a node, starts its daemon, sees it reachable with its features, renames and deletes it", async ({
  page,
  context,
  baseURL,
}) => {
  let daemon: DaemonProcess | undefined;
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/nodes");
    await login(page);
    await expect(page).toHaveURL(/\/nodes$/);

    // The local node is listed, marked, and reachable.
    const entries = page.getByTestId("node-entry");
    const local = entries.filter({ hasText: "LocalNode" });
    await expect(local).toContainText("Local");
    await expect(local.getByTestId("reachable")).toHaveText("Reachable");

    await page.getByRole("link", { name: "New node" }).click();
    await expect(page).toHaveURL(/\/nodes\/new$/);
    const create = page.getByRole("button", { name: "Create node" });

    // Client-side checks, next to their fields.
    await page.getByLabel("Public host").fill("not a host");
    await create.click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Public host is not a valid host")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();

    // A refusal only the server knows (the reserved name) is shown next to the name too.
    await page.getByLabel("Name", { exact: true }).fill("LocalNode");
    await page.getByLabel("Public host").fill("play.example.com");
    await page.getByLabel("Public port").fill("27015");
    await page.getByLabel("SFTP port").fill("27015");
    await create.click();
    await expect(page.getByText("SFTP port must not equal Public port")).toBeVisible();

    const privatePort = await freePort();
    let sftpPort = await freePort();
    while (sftpPort === privatePort) sftpPort = await freePort();
    await page.getByLabel("SFTP port").fill(String(sftpPort));
    await create.click();
    await expect(page.getByText("A node named LocalNode already exists")).toBeVisible();
    await snapTop(page, "node-create-refused-desktop");
    await expect(page).toHaveURL(/\/nodes\/new$/);

    // The private toggle shows the private address; the panel reaches the daemon there.
    const name = unique("e2e-node-");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await expect(page.getByLabel("Private host")).toHaveCount(0);
    await page.getByRole("switch", { name: "Private address" }).check();
    await page.getByLabel("Private host").fill("127.0.0.1");
    await page.getByLabel("Private port").fill(String(privatePort));
    await snap(page, "node-create-desktop");
    await create.click();

    await expect(page).toHaveURL(/\/nodes\/view\/\d+$/);
    const id = Number(page.url().split("/").pop());
    await expect(page.getByTestId("node-title")).toHaveText(name);
    await expect(page.getByText("play.example.com:27015")).toBeVisible();
    const status = page.getByTestId("node-features");
    await expect(status.getByTestId("reachable")).toHaveText("Unreachable");
    await expect(page.getByTestId("features-unknown")).toBeVisible();

    // What the API stored: ports as numbers, the private address as typed.
    const api = await adminApi(baseURL!);
    const stored = await api.get(`/api/nodes/${id}`);
    expect(stored.body).toMatchObject({
      name,
      publicHost: "play.example.com",
      publicPort: 27015,
      privateHost: "127.0.0.1",
      privatePort,
      sftpPort,
      isLocal: false,
    });

    // Deployment: the config file read from the page, the one command copied with its button.
    const config = JSON.parse(
      (await page.getByTestId("deployment-config").textContent()) ?? "",
    ) as DaemonConfig;
    expect(config).toMatchObject({ nodeId: id, listen: { port: privatePort }, sftp: { port: sftpPort } });
    const COMMAND = command(config.panelUrl);
    await expect(page.getByTestId("deployment-command")).toHaveText(COMMAND);
    await page.getByRole("button", { name: "Copy command" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied to the clipboard" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(COMMAND);
    await page.getByRole("button", { name: "Copy configuration" }).click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(config);

    // A real daemon started from that config: the open page turns reachable and shows its features.
    daemon = await startDaemon(config);
    await expect(status.getByTestId("reachable")).toHaveText("Reachable", { timeout: 20_000 });
    await expect(page.getByTestId("feature-os")).toHaveText("linux");
    await expect(page.getByTestId("feature-environments")).toContainText("host");
    await expect(page.getByTestId("feature-arch")).not.toBeEmpty();
    await expect(page.getByTestId("feature-docker")).toHaveText(/Available|Not available/);
    await expect(page.getByTestId("features-unknown")).toHaveCount(0);
    await expectNoOverflow(page);
    await snapTop(page, "node-view-desktop");

    // Rename.
    const renamed = `${name}-renamed`;
    await page.getByLabel("Name", { exact: true }).fill(renamed);
    await page.locator(".node-edit").getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Node ${renamed} saved` })).toBeVisible();
    await expect(page.getByTestId("node-title")).toHaveText(renamed);
    await expect(page.locator(".node-edit").getByRole("button", { name: "Save" })).toBeDisabled();
    expect((await api.get(`/api/nodes/${id}`)).body.name).toBe(renamed);

    // The list shows it reachable; the grid/list choice is kept across a reload.
    await page.getByRole("link", { name: "Nodes" }).first().click();
    await expect(page).toHaveURL(/\/nodes$/);
    const entry = entries.filter({ hasText: renamed });
    await expect(entry.getByTestId("reachable")).toHaveText("Reachable");
    await expect(entry).toContainText("play.example.com:27015");
    await snap(page, "nodes-grid-desktop");
    await page.getByRole("button", { name: "List", exact: true }).click();
    await expect(page.getByTestId("node-list")).toHaveClass(/item-list-list/);
    await page.reload();
    await expect(page.getByTestId("node-list")).toHaveClass(/item-list-list/);
    await expect(page.getByRole("button", { name: "List", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await snap(page, "nodes-list-desktop");
    await page.getByRole("button", { name: "Grid", exact: true }).click();
    await expect(page.getByTestId("node-list")).toHaveClass(/item-list-grid/);

    // The daemon goes away: the list says so within seconds, without a reload.
    await daemon.stop();
    await expect(entry.getByTestId("reachable")).toHaveText("Unreachable", { timeout: 20_000 });

    // Delete through the confirm dialog; cancelling first keeps it.
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/nodes/view/${id}$`));
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog).toContainText(`Delete node ${renamed}?`);
    await snap(page, "node-delete-confirm-desktop");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/nodes/view/${id}$`));
    await page.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/nodes$/);
    await expect(page.getByRole("status").filter({ hasText: `Node ${renamed} deleted` })).toBeVisible();
    await expect(entries.filter({ hasText: renamed })).toHaveCount(0);
    await expect(entries.filter({ hasText: "LocalNode" })).toHaveCount(1);
    expect((await api.get(`/api/nodes/${id}`)).status).toBe(404);
  } finally {
    await daemon?.destroy();
  }
});

test("the local node's view is read-only, cannot be deleted and offers no deployment", async ({ page }) => {
  await page.goto("/nodes/view/0");
  await login(page);
  await expect(page).toHaveURL(/\/nodes\/view\/0$/);
  await expect(page.getByTestId("node-title")).toHaveText("LocalNode");
  await expect(page.getByTestId("local-node-note")).toContainText("panel URL");
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("readonly", "");
  await expect(page.locator(".node-edit").getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(page.getByTestId("deployment-config")).toHaveCount(0);
  await expect(page.getByTestId("node-features").getByTestId("reachable")).toHaveText("Reachable");
  await expect(page.getByTestId("feature-os")).toHaveText("linux");
  await expect(page.getByTestId("feature-environments")).toContainText("host");
  // This host sandboxes and enforces limits (the isolation tests need both).
  await expect(page.getByTestId("feature-sandbox")).toHaveText("Servers run sandboxed");
  await expect(page.getByTestId("feature-limits")).toHaveText("Available");
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("reloading the node list keeps the session (its first load waits for boot's cookie rotation)", async ({
  page,
}) => {
  const refused: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 401) refused.push(`${r.request().method()} ${r.url()}`);
  });
  await page.goto("/nodes");
  await login(page);
  await expect(page.getByTestId("node-list")).toBeVisible();
  for (let i = 0; i < 8; i++) {
    await page.reload();
    await expect(page.getByTestId("node-list")).toBeVisible();
    await expect(page).toHaveURL(/\/nodes$/);
  }
  expect(refused).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the node list and a node's view fit the screen", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!);
    const name = unique("phone-node-");
    const created = await api.post("/api/nodes", {
      name,
      publicHost: "a-rather-long-host-name.play.example.com",
      publicPort: 27015,
      privateHost: "127.0.0.1",
      privatePort: await freePort(),
      sftpPort: await freePort(),
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    try {
      await page.goto("/nodes");
      await login(page);
      await expect(page).toHaveURL(/\/nodes$/);
      const entry = page.getByTestId("node-entry").filter({ hasText: name });
      await expect(entry.getByTestId("reachable")).toHaveText("Unreachable");
      await expectNoOverflow(page);
      await snap(page, "nodes-grid-phone");
      await page.getByRole("button", { name: "List", exact: true }).click();
      await expect(page.getByTestId("node-list")).toHaveClass(/item-list-list/);
      await expectNoOverflow(page);
      await snap(page, "nodes-list-phone");
      await page.getByRole("button", { name: "Grid", exact: true }).click();

      await entry.tap();
      await expect(page).toHaveURL(new RegExp(`/nodes/view/${id}$`));
      await expect(page.getByTestId("deployment-config")).toBeVisible();
      await expectNoOverflow(page);
      await snapTop(page, "node-view-phone");

      await page.goto("/nodes/new");
      await expect(page.getByRole("button", { name: "Create node" })).toBeVisible();
      await page.getByRole("switch", { name: "Private address" }).check();
      await page.getByRole("button", { name: "Create node" }).click();
      await expect(page.getByText("Private host is required")).toBeVisible();
      await expectNoOverflow(page);
      await snapTop(page, "node-create-phone");
    } finally {
      await api.delete(`/api/nodes/${id}`);
    }
  });
});
