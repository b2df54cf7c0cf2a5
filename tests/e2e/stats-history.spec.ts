import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, snap } from "./helpers.ts";

// Resource history against a real process on the local node (sampled every 2 s by the e2e panels):
// the server's Statistics section and the node view draw their charts, on a desktop and a phone.
test("resource history charts render for a server and its node", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL!);
  const id = newServerId();
  const name = `History ${id}`;
  expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0 })).status).toBe(200);
  expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
  try {
    await expect
      .poll(async () => (await api.get(`/api/servers/${id}/stats/history`)).body.points.length, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/servers/view/${id}#stats`);
    await login(page);
    const section = page.locator("#section-stats");
    await expect(page.getByRole("tab", { name: "Statistics" })).toHaveAttribute("aria-selected", "true");
    // CPU, memory and disk of a running echo server (its template names no player query).
    for (const metric of ["cpu", "memory", "disk"]) {
      await expect(section.locator(`.history-chart[data-metric="${metric}"] canvas`)).toBeVisible();
    }
    await expect(section.locator('.history-chart[data-metric="players"]')).toHaveCount(0);
    await expect(section.locator(".history-readout strong").nth(1)).toHaveText(/\d.*B$/);
    // A canvas uPlot drew on: some pixels are not blank.
    const drawn = await section
      .locator('.history-chart[data-metric="memory"] canvas')
      .evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
        return data.some((byte, i) => i % 4 === 3 && byte > 0);
      });
    expect(drawn).toBe(true);
    await section.getByRole("button", { name: "24h" }).click();
    await expect(section.getByRole("button", { name: "24h" })).toHaveAttribute("aria-pressed", "true");
    await expect(section.locator('.history-chart[data-metric="cpu"] canvas')).toBeVisible();
    await snap(page, "history-server-desktop");

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(section.locator('.history-chart[data-metric="disk"] canvas')).toBeVisible();
    // The charts follow their boxes once the resize is observed (and the sidebar has slid out):
    // the width is read until it settles, so an overflow that stays still fails.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    await snap(page, "history-server-phone");

    await page.goto("/nodes/view/0");
    const node = page.locator(".node-history");
    for (const metric of ["cpu", "memory", "disk"]) {
      await expect(node.locator(`.history-chart[data-metric="${metric}"] canvas`)).toBeVisible();
    }
    await expect(node.getByTestId("server-load").getByRole("link", { name })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "history-node-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    await snap(page, "history-node-desktop");
  } finally {
    await api.post(`/api/servers/${id}/kill`);
  }
});
