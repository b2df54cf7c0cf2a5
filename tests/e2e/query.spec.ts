import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { openttdTemplate } from "../support/openttd-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, snap } from "./helpers.ts";

// The Players section against a real OpenTTD server on the local node: who is online while it
// runs, "not running" after a stop, and a plain note for a server whose template has no query.
test("the Players section shows a running OpenTTD server's count", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const template = openttdTemplate(await freePort());
  template.data.maxplayers.value = 8;
  template.data.servername.value = "Outpost E2E Players";
  expect((await api.put(`/api/servers/${id}`, { ...template, name: "Players test", node: 0 })).status).toBe(
    200,
  );
  expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
  expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
  // The game answers about a second after its start; the section is tested, not the game's start.
  await expect
    .poll(async () => (await api.get(`/api/servers/${id}/query`)).status, {
      timeout: 30_000,
      intervals: [500],
    })
    .toBe(200);

  try {
    await page.goto(`/servers/view/${id}#query`);
    await login(page);
    const section = page.locator("#section-query");
    await expect(page.getByRole("tab", { name: "Players" })).toHaveAttribute("aria-selected", "true");
    await expect(section.getByTestId("query-count")).toContainText("0 / 8");
    await expect(section.getByTestId("query-count")).toContainText("players online");
    await expect(section).toContainText("Outpost E2E Players");
    await expect(section).toContainText("No one is playing right now.");
    await expect(section).toContainText(/Updated \d/);
    await snap(page, "query-openttd-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    // The sidebar slides away on a narrow screen; the picture is taken once it has gone.
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Nodes" }),
    ).toBeHidden();
    await expect(section.getByTestId("query-count")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "query-openttd-phone");

    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    // The live status says it stopped; the section asks again and says so.
    await expect(section).toContainText("The server is not running", { timeout: 15_000 });
    await section.getByTestId("query-refresh").click();
    await expect(section).toContainText("The server is not running");
    await snap(page, "query-stopped-phone");
  } finally {
    await api.post(`/api/servers/${id}/kill`);
  }

  const plain = newServerId();
  expect(
    (await api.put(`/api/servers/${plain}`, { ...echoDefinition(), name: "No query", node: 0 })).status,
  ).toBe(200);
  await page.goto(`/servers/view/${plain}#query`);
  await expect(page.locator("#section-query").getByTestId("query-unsupported")).toBeVisible();
  await snap(page, "query-unsupported-phone");
});
