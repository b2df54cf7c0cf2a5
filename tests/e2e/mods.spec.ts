import { echoDefinition } from "../support/echo-template.ts";
import { type ModStandin, startModStandin } from "../support/mod-sources-standin.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, newServerId, registerUser, snap, unique } from "./helpers.ts";

// Issue 37: a server's user searches the mod source (a STAND-IN on 127.0.0.1 serving
// Modrinth-shaped answers and small jars: there is no network here), installs a mod with its
// dependency, sees it in the folder's list and removes it, at 1280 px and at 390 px.

let standin: ModStandin;
test.beforeAll(async () => {
  standin = await startModStandin();
});
test.afterAll(async () => {
  await standin?.close();
});

test("a server user installs a mod from the source and removes it, on a desktop and on a phone", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const setting = "/api/settings/panel.mods.modrinthUrl";
  expect((await api.put(setting, { value: `${standin.url}/modrinth` })).status).toBe(204);
  try {
    const user = await registerUser(baseURL!, "modder");
    const id = newServerId();
    const made = await api.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      type: "minecraft-java",
      name: unique("fabric-"),
      node: 0,
      users: [user.username],
      mods: { game: "minecraft", loader: "fabric", version: "1.20.1", folder: "mods" },
    });
    expect(made.status, made.text).toBe(200);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/servers/view/${id}#mods`);
    await login(page, user.email, user.password);
    await page.getByRole("tab", { name: "Mods" }).click();
    const section = page.getByTestId("mods");
    await expect(section.getByTestId("mods-target")).toHaveText("Loader fabric, 1.20.1, in mods/");
    await expect(section.getByTestId("mods-curseforge-note")).toBeVisible();
    await section.getByLabel("Name or keyword").fill("menu");
    await section.getByRole("button", { name: "Search" }).click();
    const result = section.getByTestId("mods-result").filter({ hasText: "Mod Menu" });
    await expect(result).toContainText("by Prospector");
    await result.getByTestId("mods-install").click();
    await expect(page.getByRole("status").filter({ hasText: "Installed: modmenu-7.2.2.jar" })).toBeVisible();
    const installed = section.getByTestId("mods-installed-item");
    await expect(installed).toHaveCount(2);
    await expect(installed.filter({ hasText: "Fabric API" })).toContainText("0.92.0+1.20.1");
    await snap(page, "server-mods-desktop");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole("tab", { name: "Mods" }).click();
    await expect(installed).toHaveCount(2);
    await section.getByLabel("Name or keyword").fill("mod");
    await section.getByRole("button", { name: "Search" }).click();
    await expect(section.getByTestId("mods-result")).toHaveCount(1);
    await expectNoOverflow(page);
    await snap(page, "server-mods-phone");
    await installed.filter({ hasText: "Mod Menu" }).getByTestId("mods-remove").click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect(installed).toHaveCount(1);
    await expect(installed).toContainText("Fabric API");
    expect((await api.delete(`/api/servers/${id}`)).status).toBeLessThan(300);
  } finally {
    await api.put(setting, { value: "https://api.modrinth.com" });
  }
});

// The mod sources' settings (issue 37) on the administrator's settings screen, on a phone: a
// source turned off, CurseForge's key set — write-only, the screen says only that it is set.
test("an administrator sets the CurseForge key and turns a source off, on a phone", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/auth/login");
    await login(page);
    await expect(page).toHaveURL(/\/servers$/);
    await page.goto("/settings");
    const form = page.getByTestId("mod-sources-form");
    await expect(form.getByTestId("mod-source-modrinth-url")).toHaveValue("https://api.modrinth.com");
    await expect(form.getByTestId("mod-source-curseforge-key")).toContainText("not set");
    await expect(form.getByText("CurseForge is offered only once its API key is set.")).toBeVisible();
    await form.getByRole("switch", { name: "Offer Hangar" }).uncheck();
    await form.getByTestId("mod-source-curseforge-key-input").fill("cf-key-from-the-screen");
    await form.getByTestId("mod-sources-save").click();
    await expect(page.getByText("Settings saved")).toBeVisible();

    await page.reload();
    await expect(form.getByTestId("mod-source-curseforge-key")).toContainText("(set)");
    await expect(form.getByTestId("mod-source-curseforge-key-input")).toHaveValue("");
    await expect(form.getByRole("switch", { name: "Offer Hangar" })).not.toBeChecked();
    await expect(form.getByRole("switch", { name: "Offer Modrinth" })).toBeChecked();
    expect((await api.get("/api/settings/panel.mods.curseforgeKey")).body).toEqual({
      value: "",
      isSet: true,
    });
    expect((await api.get("/api/settings/panel.mods.hangarEnabled")).body.value).toBe(false);
    await expectNoOverflow(page);
    await snap(page, "settings-mod-sources-phone", {
      fullPage: false,
      before: () => form.scrollIntoViewIfNeeded(),
    });
  } finally {
    await api.post("/api/settings", { "panel.mods.curseforgeKey": null, "panel.mods.hangarEnabled": true });
  }
});
