import { freePort } from "../support/free-port.ts";
import { expect, test } from "./fixtures.ts";
import { login, snap, unique } from "./helpers.ts";

// A real game server (Debian's OpenTTD) through the UI on the local node, from the starter
// template that ships with the panel: create it in the wizard (which installs it), start it,
// watch its console over the socket, command it, stop it.
test("an administrator runs a real OpenTTD server from the starter template, in the browser", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = unique("OpenTTD ");

  await page.goto("/servers/new");
  await login(page);
  await expect(page).toHaveURL(/\/servers\/new$/);
  const starter = page.getByTestId("template-repo").filter({ hasText: "Starter templates" });
  await starter.getByTestId("template-item").filter({ hasText: "openttd" }).click();
  await page.getByTestId("wizard-next").click();
  await expect(page.getByTestId("wizard-environment")).toBeVisible();
  await page.getByTestId("wizard-next").click();
  await expect(page.getByTestId("wizard-user-list")).toContainText("admin");
  await page.getByTestId("wizard-next").click();
  const settings = page.getByTestId("wizard-settings");
  await settings.getByRole("textbox", { name: /^IP/ }).fill("127.0.0.1");
  await settings.getByLabel(/^Port/).fill(String(await freePort()));
  await settings.getByRole("textbox", { name: /^Name in the server list/ }).fill("Outpost E2E OpenTTD");
  await settings.getByLabel(/^Map size/).selectOption({ label: "64 tiles" });
  await settings.getByTestId("server-name").fill(name);
  await expect(settings.getByRole("switch", { name: "Install now" })).toBeChecked();
  await page.getByTestId("wizard-create").click();

  await expect(page).toHaveURL(/\/servers\/view\/[0-9a-f]{8}$/);
  await expect(page.getByTestId("socket-state")).toHaveAttribute("data-state", "open");
  const status = page.locator(".lifecycle .status");
  const output = page.getByTestId("console-output");
  // Installed by the wizard, without asking.
  await expect(output).toContainText("Server installed", { timeout: 30_000 });
  await expect(status).toHaveAttribute("data-status", "offline");

  await page.getByTestId("action-start").click();
  await expect(status).toHaveAttribute("data-status", "online");
  await expect(output).toContainText(/starting game|Map generated/i, { timeout: 30_000 });

  const input = page.getByTestId("console-input");
  await input.fill("server_info");
  await input.press("Enter");
  await expect(output).toContainText(/Outpost E2E OpenTTD|Current\/maximum clients/i);
  await snap(page, "openttd-console");

  await page.getByTestId("action-stop").click();
  await expect(status).toHaveAttribute("data-status", "offline", { timeout: 30_000 });
  await expect(output).toContainText("exited with code 0");
});
