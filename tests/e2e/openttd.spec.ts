import { freePort } from "../support/free-port.ts";
import { openttdTemplate } from "../support/openttd-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snap, unique } from "./helpers.ts";

// A real game server (Debian's OpenTTD) through the UI on the local node: create it in the
// wizard, install it, start it, watch its console over the socket, command it, stop it.
test("an administrator runs a real OpenTTD server from the browser", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const template = unique("openttd-");
  expect((await api.put(`/api/templates/0/${template}`, openttdTemplate(await freePort()))).status).toBe(204);
  const name = unique("OpenTTD ");

  await page.goto("/servers/new");
  await login(page);
  await expect(page).toHaveURL(/\/servers\/new$/);
  await page.getByTestId("template-search").fill(template);
  await page
    .getByTestId("wizard-template")
    .getByTestId("template-item")
    .filter({ hasText: template })
    .click();
  await page.getByTestId("wizard-next").click();
  await expect(page.getByTestId("wizard-environment")).toBeVisible();
  await page.getByTestId("wizard-next").click();
  await expect(page.getByTestId("wizard-user-list")).toContainText("admin");
  await page.getByTestId("wizard-next").click();
  const settings = page.getByTestId("wizard-settings");
  await settings.getByRole("textbox", { name: /^Name/ }).fill("Outpost E2E OpenTTD");
  await settings.getByTestId("server-name").fill(name);
  await page.getByTestId("wizard-create").click();

  await expect(page).toHaveURL(/\/servers\/view\/[0-9a-f]{8}$/);
  await expect(page.getByTestId("socket-state")).toHaveAttribute("data-state", "open");
  const status = page.locator(".lifecycle .status");
  const output = page.getByTestId("console-output");
  await expect(status).toHaveAttribute("data-status", "offline");

  await page.getByTestId("action-install").click();
  await page.getByRole("dialog").getByRole("button", { name: "Install" }).click();
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
