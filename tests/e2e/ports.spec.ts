import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, newServerId, registerUser, snap, unique } from "./helpers.ts";

// Issue 36: an administrator adds a range of ports to a node; a server's user adds a port to the
// server and copies its address, at 1280 px and at 390 px. The range is the local node's, on
// ports no other spec uses, and is removed at the end: servers other specs make there keep
// their template's ports.

const range = { from: 47100, to: 47104 };

test("an administrator adds a range; a server user adds a port and copies its address", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const api = await adminApi(baseURL!);
  const id = newServerId();
  let wizardMade: string | undefined;
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/nodes/view/0");
    await login(page);
    const panel = page.locator(".node-allocations");
    const form = panel.getByTestId("allocation-add");
    await form.getByLabel("IP address").fill("0.0.0.0");
    await form.getByLabel("Ports", { exact: true }).fill(`${range.from}-${range.to}`);
    await form.getByRole("button", { name: "Add ports" }).click();
    await expect(panel.getByTestId("allocations-count")).toHaveText("Allocations: 5, free: 5");
    await expect(panel.getByTestId("allocation")).toHaveCount(5);
    await panel.scrollIntoViewIfNeeded();
    await snap(page, "node-allocations-desktop");

    // The wizard shows the port the server gets and offers the node's other free ones.
    const template = unique("ports-tpl-");
    expect((await api.put(`/api/templates/0/${template}`, echoDefinition())).status).toBe(204);
    await page.goto("/servers/new");
    await page.getByTestId("template-search").fill(template);
    await page.getByTestId("template-item").filter({ hasText: template }).click();
    for (let n = 0; n < 3; n++) await page.getByTestId("wizard-next").click();
    const settings = page.getByTestId("wizard-settings");
    await settings.getByTestId("server-name").fill(unique("ports-wizard-"));
    const choice = settings.getByTestId("port-choice");
    await expect(choice.getByTestId("port-chosen")).toContainText(`port ${range.from}`);
    // The pool gives the port: the template's own value (25565) is not asked beside it.
    await expect(settings.getByLabel("Message")).toBeVisible();
    await expect(settings.getByLabel("Port", { exact: true })).toHaveCount(0);
    await choice.getByLabel("Port from the node's pool").selectOption(String(range.from + 3));
    await expect(choice.getByTestId("port-chosen")).toContainText(`port ${range.from + 3}`);
    await choice.scrollIntoViewIfNeeded();
    await snap(page, "server-wizard-port", { fullPage: false });
    await page.getByTestId("wizard-create").click();
    await expect(page).toHaveURL(/\/servers\/view\/[0-9a-f]{8}$/);
    wizardMade = page.url().split("/").pop() as string;
    expect((await api.get(`/api/servers/${wizardMade}`)).body.server.port).toBe(range.from + 3);
    await page.goto("/nodes/view/0");

    // A server of a plain user on that node: it takes the first free port; one extra allowed.
    const user = await registerUser(baseURL!, "portuser");
    const made = await api.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      name: unique("port-server-"),
      node: 0,
      users: [user.username],
    });
    expect(made.status, made.text).toBe(200);
    expect((await api.put(`/api/servers/${id}/limits`, { allocationLimit: 1 })).status).toBe(200);
    await page.reload();
    await expect(panel.getByTestId("allocations-count")).toHaveText("Allocations: 5, free: 3");
    await expect(panel.getByTestId("allocation").first()).toContainText(`Held by ${id}`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(panel.getByTestId("allocation")).toHaveCount(5);
    await panel.scrollIntoViewIfNeeded();
    await expectNoOverflow(page);
    await snap(page, "node-allocations-phone");

    await page.setViewportSize({ width: 1280, height: 900 });
    await context.clearCookies();
    await page.goto(`/servers/view/${id}#network`);
    await login(page, user.email, user.password);
    await page.getByRole("tab", { name: "Network" }).click();
    const section = page.getByTestId("network");
    await expect(section.getByTestId("network-count")).toHaveText("Extra ports: 0 of 1");
    const addresses = section.getByTestId("network-address");
    await expect(addresses).toHaveCount(1);
    await expect(addresses.first()).toHaveValue(new RegExp(`:${range.from}$`));
    await section.getByTestId("network-add").click();
    await expect(addresses).toHaveCount(2);
    const added = await addresses.nth(1).inputValue();
    expect(added).toMatch(new RegExp(`:${range.from + 1}$`));
    await section.getByRole("button", { name: `Copy the address ${added}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(added);
    // The limit reached: no more to add.
    await expect(section.getByTestId("network-add")).toHaveCount(0);
    await snap(page, "server-network-desktop");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole("tab", { name: "Network" }).click();
    await expect(addresses).toHaveCount(2);
    const primary = await addresses.first().inputValue();
    await section.getByRole("button", { name: `Copy the address ${primary}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(primary);
    await expectNoOverflow(page);
    await snap(page, "server-network-phone");
  } finally {
    await api.delete(`/api/servers/${id}`);
    if (wizardMade) await api.delete(`/api/servers/${wizardMade}`);
    const pool = (await api.get("/api/nodes/0/allocations")).body as { id: number; port: number }[];
    for (const entry of pool.filter((e) => e.port >= range.from && e.port <= range.to))
      await api.delete(`/api/nodes/0/allocations/${entry.id}`);
  }
});
