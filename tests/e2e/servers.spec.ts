import { echoDefinition } from "../support/echo-template.ts";
import { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snapTop, unique } from "./helpers.ts";

/** Screenshots from the top of the page (a focused field may have scrolled it). */
// A server's whole life through the UI: a local template (made through the API, as the template
// screens would), the creation wizard, the server view, start, console over the socket, a command
// and its answer, stop. Then the list and the console on a phone.

test("the admin creates a server from a local template, starts it, talks to it and stops it", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const template = unique("echo-test-");
  const base = echoDefinition();
  const put = await api.put(
    `/api/templates/0/${template}`,
    echoDefinition({
      display: "Echo test server",
      data: {
        ...base.data,
        mode: {
          type: "option",
          value: "simple",
          display: "Mode",
          options: [
            { value: "simple", display: "Simple" },
            { value: "advanced", display: "Advanced" },
          ],
        },
        verbose: { type: "boolean", value: false, display: "Verbose output" },
      },
      groups: [
        { display: "General", variables: ["motd", "port", "mode"], order: 0 },
        { display: "Advanced", if: "mode == 'advanced'", variables: ["verbose"], order: 1 },
      ],
    }),
  );
  expect(put.status).toBe(204);
  const name = unique("e2e-echo-");

  await page.goto("/servers");
  await login(page);
  await expect(page).toHaveURL(/\/servers$/);
  await page.getByRole("link", { name: "New server" }).click();
  await expect(page).toHaveURL(/\/servers\/new$/);

  // 1. Template: every repo lists (a repo that cannot be reached says so on its own entry).
  const templateStep = page.getByTestId("wizard-template");
  await expect(templateStep.getByRole("heading", { name: "Local templates" })).toBeVisible();
  await page.getByTestId("template-search").fill(template);
  await templateStep.getByTestId("template-item").filter({ hasText: template }).click();
  await expect(templateStep.getByTestId("template-item").filter({ hasText: template })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await snapTop(page, "server-wizard-template");
  await page.getByTestId("wizard-next").click();

  // 2. Node and environment: the local node, host marked as the template's default.
  const envStep = page.getByTestId("wizard-environment");
  await expect(envStep.getByLabel("Node", { exact: true })).toBeVisible();
  const host = envStep.locator("label.env-choice").filter({ hasText: "Host" });
  await expect(host.getByTestId("env-default")).toBeVisible();
  await expect(host.getByRole("radio")).toBeChecked();
  await snapTop(page, "server-wizard-environment");
  await page.getByTestId("wizard-next").click();

  // 3. Users: the signed-in user is already there.
  await expect(page.getByTestId("wizard-user-list")).toContainText("admin");
  await page.getByTestId("wizard-next").click();

  // 4. Settings: grouped variables, typed; a wrong integer is refused.
  const settings = page.getByTestId("wizard-settings");
  await expect(settings.getByRole("group", { name: "General" })).toBeVisible();
  await expect(settings.getByLabel("Message")).toHaveValue("hello");
  // The Advanced group's CEL condition holds only once "advanced" is chosen.
  await expect(settings.getByRole("group", { name: "Advanced" })).toHaveCount(0);
  await settings.getByLabel("Mode").selectOption("advanced");
  await expect(settings.getByRole("group", { name: "Advanced" })).toBeVisible();
  await settings.getByRole("switch", { name: "Verbose output" }).check();
  await settings.getByLabel("Message").fill("from the wizard");
  await settings.getByLabel("Port").fill("not a number");
  await settings.getByTestId("server-name").fill(name);
  await page.getByTestId("wizard-create").click();
  await expect(settings.getByText("Enter a whole number")).toBeVisible();
  await settings.getByLabel("Port").fill("25570");
  await snapTop(page, "server-wizard-settings");
  await page.getByTestId("wizard-create").click();

  // The server view, live.
  await expect(page).toHaveURL(/\/servers\/view\/[0-9a-f]{8}$/);
  await expect(page.getByTestId("server-title")).toHaveText(name);
  await expect(page.getByTestId("socket-state")).toHaveAttribute("data-state", "open");
  // "Server … created" leaves the console's command box free (issue 27).
  const toast = page.locator(".toast").filter({ hasText: `Server ${name} created` });
  await expect(toast).toBeVisible();
  const [toastBox, inputBox] = await Promise.all([
    toast.boundingBox(),
    page.getByTestId("console-input").boundingBox(),
  ]);
  const overlaps =
    toastBox!.x < inputBox!.x + inputBox!.width &&
    inputBox!.x < toastBox!.x + toastBox!.width &&
    toastBox!.y < inputBox!.y + inputBox!.height &&
    inputBox!.y < toastBox!.y + toastBox!.height;
  expect(overlaps).toBe(false);
  await snapTop(page, "server-created-toast");
  const status = page.locator(".lifecycle .status");
  const output = page.getByTestId("console-output");
  // The wizard installed it (Install now is on by default); it starts once that is done.
  await expect(output).toContainText("Server installed");
  await expect(status).toHaveAttribute("data-status", "offline");
  await expect(page.getByTestId("action-stop")).toHaveCount(0);

  await page.getByTestId("action-start").click();
  await expect(status).toHaveAttribute("data-status", "online");
  await expect(page.getByTestId("action-start")).toHaveCount(0);
  // Output of the process, over the socket; the node's notices carry a short fixed tag, whatever
  // the company is called (issue 27).
  await expect(output).toContainText("ready from the wizard on 25570");
  await expect(output.locator(".console-daemon").first()).toHaveText("Node");
  await expect(output).not.toContainText("[DAEMON]");

  const input = page.getByTestId("console-input");
  await input.fill("ping");
  await input.press("Enter");
  await expect(output).toContainText("pong ping");
  // Process text is text: markup in it is shown, never made into elements.
  await input.fill("<b>bold</b> <img src=x onerror=alert(1)>");
  await input.press("Enter");
  await expect(output).toContainText("pong <b>bold</b> <img src=x onerror=alert(1)>");
  await expect(output.locator("b, img")).toHaveCount(0);
  // ANSI colours become classes; the escape codes themselves are not shown.
  await input.fill("\u001b[1;31mred\u001b[0m plain");
  await input.press("Enter");
  await expect(output.locator("span.a-f1.a-bold", { hasText: "red" })).toBeVisible();
  await expect(output).toContainText("pong red plain");
  // ↑ brings the last command back.
  await input.press("ArrowUp");
  await expect(input).toHaveValue("\u001b[1;31mred\u001b[0m plain");
  await input.press("ArrowUp");
  await expect(input).toHaveValue("<b>bold</b> <img src=x onerror=alert(1)>");
  await input.press("ArrowUp");
  await expect(input).toHaveValue("ping");
  for (let i = 0; i < 3; i++) await input.press("ArrowDown");
  await expect(input).toHaveValue("");
  await snapTop(page, "server-console-desktop");

  await page.getByTestId("action-stop").click();
  await expect(status).toHaveAttribute("data-status", "offline");
  await expect(output).toContainText("bye");
  await expect(page.getByTestId("action-start")).toBeVisible();

  // Settings and admin sections.
  await page.getByRole("tab", { name: "Settings" }).click();
  await expect(page.getByRole("group", { name: "General" }).getByLabel("Message")).toHaveValue(
    "from the wizard",
  );
  await expect(page.getByRole("group", { name: "Advanced" }).getByRole("switch")).toBeChecked();
  await snapTop(page, "server-settings-desktop");
  await page.getByRole("tab", { name: "Admin" }).click();
  const editor = page.getByTestId("definition-editor");
  await expect(editor).toHaveValue(/"type": "test"/);
  await editor.fill('{"type": 1}');
  await expect(page.getByTestId("definition-problems")).toBeVisible();
  await expect(page.getByTestId("save-definition")).toBeDisabled();
  await snapTop(page, "server-admin-desktop");

  // Back in the list: found by name, offline, with start offered.
  await page.getByRole("link", { name: "Servers", exact: true }).first().click();
  await page.getByTestId("server-search").fill(name);
  const entry = page.getByTestId("server-entry").filter({ hasText: name });
  await expect(entry).toHaveCount(1);
  await expect(entry.locator(".status")).toHaveAttribute("data-status", "offline");
  await expect(entry.getByRole("button", { name: `Start ${name}` })).toBeVisible();
  await expect(entry.getByRole("button", { name: `Stop ${name}` })).toHaveCount(0);
  await snapTop(page, "server-list-desktop");
});

test("a user of a server sees its actions and console, edits only their variables, and no admin section", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  const username = unique("owner");
  const user = { username, email: `${username}@example.com`, password: "owner-password-1" };
  const client = new PanelClient(baseURL!);
  await client.prime();
  expect((await client.post("/auth/register", user)).status).toBe(200);
  const id = `${Date.now().toString(16).slice(-6)}ee`;
  const name = unique("owned-");
  const created = await api.put(`/api/servers/${id}`, {
    ...echoDefinition(),
    name,
    node: 0,
    users: [username],
  });
  expect(created.status).toBe(200);

  await page.goto("/servers");
  await login(page, user.email, user.password);
  const entry = page.getByTestId("server-entry").filter({ hasText: name });
  await expect(entry).toHaveCount(1);
  await expect(page.getByRole("link", { name: "New server" })).toHaveCount(0);
  // start comes from this server's own scopes (fetched because the global ones do not grant it)
  await expect(entry.getByRole("button", { name: `Start ${name}` })).toBeVisible();
  await entry.getByRole("link").click();

  await expect(page.getByTestId("server-title")).toHaveText(name);
  await expect(page.getByRole("tab", { name: "Admin" })).toHaveCount(0);
  await expect(page.getByTestId("console-input")).toBeVisible();
  await page.getByTestId("action-start").click();
  await expect(page.getByTestId("console-output")).toContainText("ready hello on 25565");
  await page.getByTestId("console-input").fill("hello there");
  await page.getByTestId("console-input").press("Enter");
  await expect(page.getByTestId("console-output")).toContainText("pong hello there");
  await page.getByTestId("action-stop").click();
  await expect(page.locator(".lifecycle .status")).toHaveAttribute("data-status", "offline");

  // Settings: only the variable users may edit; saving it goes through.
  await page.getByRole("tab", { name: "Settings" }).click();
  const message = page.getByLabel("Message");
  await expect(message).toHaveValue("hello");
  await expect(page.getByLabel("Admin only")).toHaveCount(0);
  await message.fill("set by the owner");
  await page.getByTestId("save-variables").click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  const data = await api.get(`/api/servers/${id}/data`);
  expect(data.body.data.motd.value).toBe("set by the owner");
  await snapTop(page, "server-settings-user");
});

const knownTypes = [
  "7days2die",
  "ark",
  "arma3",
  "csgo",
  "css",
  "dontstarvetogether",
  "eco",
  "factorio",
  "gmod",
  "minecraft-bedrock",
  "minecraft-java",
  "rust",
  "starbound",
  "terraria",
];

test("every known server type has its icon, others the generic one; grid or list is remembered", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const prefix = unique("typed-");
  // 15 typed servers and 7 more: two pages of 20
  const types = [...knownTypes, ...Array.from({ length: 8 }, () => "something-else")];
  const ids: string[] = [];
  for (const [i, type] of types.entries()) {
    const id = `${Date.now().toString(16).slice(-6)}${i.toString(16).padStart(2, "0")}`;
    ids.push(id);
    const created = await api.put(`/api/servers/${id}`, {
      ...echoDefinition({ type }),
      name: `${prefix}-${String(i).padStart(2, "0")}-${type}`,
      node: 0,
      users: [],
    });
    expect(created.status).toBe(200);
  }

  await page.goto("/servers");
  await login(page);
  // The search is sent after a pause: wait for its answer, or "Load more" may page the list before it
  // (which also reads "20 of 22" when this test's servers are the panel's only ones).
  const searched = page.waitForResponse(
    (r) => r.url().includes("/api/servers?") && r.url().includes("name="),
  );
  await page.getByTestId("server-search").fill(prefix);
  await searched;
  const entries = page.getByTestId("server-entry");
  await expect(entries).toHaveCount(20);
  await expect(page.getByText(`20 of ${types.length}`)).toBeVisible();
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(entries).toHaveCount(types.length);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  for (const [i, type] of types.entries()) {
    const icon = entries.nth(i).locator(".type-icon");
    await expect(icon).toHaveAttribute("data-type", type === "something-else" ? "generic" : type);
  }
  await snapTop(page, "server-types-grid");
  await page.getByRole("button", { name: "List" }).click();
  await expect(page.getByTestId("server-list")).toHaveClass(/item-list-list/);
  await snapTop(page, "server-types-list");
  await page.reload();
  await expect(page.getByTestId("server-list")).toHaveClass(/item-list-list/);
  await page.getByRole("button", { name: "Grid" }).click();
  // Gone again: 23 servers left behind would fill the first page that later specs look at.
  for (const id of ids) expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the list and a running server's console fit the screen", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL!);
    const template = unique("echo-phone-");
    expect((await api.put(`/api/templates/0/${template}`, echoDefinition())).status).toBe(204);
    const id = Array.from({ length: 8 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
    const full = (await api.get(`/api/templates/0/${template}`)).body;
    const name = unique("phone-echo-");
    const created = await api.put(`/api/servers/${id}`, { ...full, name, node: 0, users: ["admin"] });
    expect(created.status).toBe(200);

    await page.goto("/servers");
    await login(page);
    await expect(page.getByTestId("server-list")).toBeVisible();
    // Other tests' servers share this panel: find ours by name (statuses are read for what is on screen).
    await page.getByPlaceholder("Filter servers by name").fill(name);
    await expect(page.locator(`[data-id="${id}"] .status`)).toHaveAttribute("data-status", "offline");
    await snapTop(page, "server-list-phone");

    await page.goto(`/servers/view/${id}`);
    await page.getByTestId("action-start").click();
    const output = page.getByTestId("console-output");
    await expect(output).toContainText("ready hello on 25565");
    const input = page.getByTestId("console-input");
    await input.fill("ping");
    await input.press("Enter");
    await expect(output).toContainText("pong ping");
    await snapTop(page, "server-console-phone");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByTestId("action-stop").click();
    await expect(page.locator(".lifecycle .status")).toHaveAttribute("data-status", "offline");
  });
});
