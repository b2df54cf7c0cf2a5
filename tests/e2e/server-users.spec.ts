import type { Page } from "@playwright/test";
import { builtInPresets } from "../../server/contract/scopes.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { PanelClient } from "../support/http-client.ts";
import { SmtpInbox } from "../support/smtp-inbox.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snap as snapAt, snapTop, unique } from "./helpers.ts";

/** A built-in preset's scopes (server/contract/scopes.ts). */
const preset = (id: string) => builtInPresets.find((p) => p.id === id)?.scopes ?? [];

/** Screenshots from the top of the page (a focused field may have scrolled it). */
/** What a phone shows at once (full-page shots are too tall to judge a phone by). */
const snapView = (page: Page, name: string) => snapAt(page, name, { fullPage: false });

/** A server of the admin's (no users of its own yet) and a registered player, through the API. */
async function setup(baseURL: string) {
  const api = await adminApi(baseURL);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  const name = unique("player");
  const player = { username: name, email: `${name}@example.com`, password: "player-password-1" };
  const playerApi = new PanelClient(baseURL);
  await playerApi.prime();
  expect((await playerApi.post("/auth/register", player)).status).toBe(200);
  const id = Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, "0");
  const serverName = unique("Shared world ");
  const created = await api.put(`/api/servers/${id}`, {
    ...echoDefinition(),
    name: serverName,
    node: 0,
    users: [],
  });
  expect(created.status, created.text).toBe(200);
  return { api, player, id, serverName };
}

const scopesOf = async (api: PanelClient, id: string, email: string): Promise<string[]> =>
  [...(await api.get(`/api/servers/${id}/user/${encodeURIComponent(email)}`)).body[0].scopes].sort();

test("the admin shares a server: grants a user, invites an address, and makes an OAuth client", async ({
  page,
  browser,
  baseURL,
}) => {
  const { api, player, id, serverName } = await setup(baseURL!);
  await page.goto(`/servers/view/${id}#users`);
  await login(page);
  await expect(page.getByTestId("server-title")).toHaveText(serverName);
  await page.getByRole("tab", { name: "Users" }).click();
  const section = page.locator("#section-users");
  await expect(section.getByText("No user has permissions on this server")).toBeVisible();

  // 1. A registered user, with a preset first, then Custom (issue 39).
  const add = section.getByTestId("add-user");
  await add.getByLabel("Email").fill(player.email);
  const choice = add.getByTestId("preset-choice");
  // Viewer is chosen at first: five permissions, what the API gives without scopes too.
  await expect(choice.getByRole("radio", { name: /^Viewer/ })).toBeChecked();
  await expect(add.getByTestId("preset-count")).toHaveText(`Permissions given: ${preset("viewer").length}`);
  await choice.getByRole("radio", { name: /^Operator/ }).check();
  await expect(add.getByTestId("preset-count")).toHaveText(`Permissions given: ${preset("operator").length}`);
  await snapTop(page, "server-users-add-presets");
  // Custom opens the full picker, starting from the preset chosen before.
  await choice.getByRole("radio", { name: /^Custom/ }).check();
  const picker = add.getByTestId("add-user-scopes");
  const count = picker.getByTestId("scope-count");
  await expect(count).toHaveText(new RegExp(`^Chosen: ${preset("operator").length} of \\d+$`));
  await expect(picker.getByLabel("See the server", { exact: true })).toBeChecked();
  await expect(picker.getByLabel("See the server", { exact: true })).toBeDisabled();
  await expect(picker.getByLabel("Read the console")).toBeChecked();
  await expect(picker.getByLabel("Start", { exact: true })).toBeChecked();
  await expect(picker.getByLabel("Kill")).not.toBeChecked();
  // A scope that needs another brings it along; taking that one away takes what needs it.
  await expect(picker.getByLabel("See tasks")).not.toBeChecked();
  await picker.getByLabel("Run tasks").check();
  await expect(picker.getByLabel("See tasks")).toBeChecked();
  await picker.getByLabel("See tasks").uncheck();
  await expect(picker.getByLabel("Run tasks")).not.toBeChecked();
  // Select all and Clear per group, with the running count.
  const tasks = picker.locator('fieldset[data-group="tasks"]');
  await tasks.getByRole("button", { name: "Select all in Tasks" }).click();
  await expect(tasks.locator("input:checked")).toHaveCount(5);
  await expect(count).toHaveText(new RegExp(`^Chosen: ${preset("operator").length + 5} of \\d+$`));
  await tasks.getByRole("button", { name: "Clear all in Tasks" }).click();
  await expect(tasks.locator("input:checked")).toHaveCount(0);
  await expect(tasks.getByRole("button", { name: "Clear all in Tasks" })).toBeDisabled();
  // What SFTP allows follows the file permissions chosen beside it (issue 22, point 3).
  const sftp = picker.getByLabel("Connect with SFTP");
  const sftpNote = picker.locator('[data-note-for="server.sftp"]');
  await sftp.check();
  await expect(picker.getByLabel("Browse and download files")).toBeChecked();
  await expect(sftpNote).toHaveText("SFTP is read-only without “Change, upload and delete files”");
  await expect(sftp).toHaveAccessibleDescription(
    "SFTP is read-only without “Change, upload and delete files”",
  );
  await sftpNote.scrollIntoViewIfNeeded();
  await snapAt(page, "server-users-sftp-read-only");
  await picker.getByLabel("Change, upload and delete files").check();
  await expect(sftpNote).toHaveCount(0);
  await picker.getByLabel("Browse and download files").uncheck();
  // Files view gone: files edit and SFTP, which need it, go with it.
  await expect(picker.getByLabel("Change, upload and delete files")).not.toBeChecked();
  await expect(sftp).not.toBeChecked();
  await picker.getByLabel("Browse and download files").check();
  // One fieldset per group of scopeLabels.ts (ports made it eleven).
  await expect(picker.locator("fieldset")).toHaveCount(11);
  await snapTop(page, "server-users-add");
  await add.getByTestId("add-user-submit").click();
  const entry = section.locator(`[data-testid="server-user"][data-email="${player.email}"]`);
  await expect(entry).toContainText(player.username);
  await expect(section.getByTestId("invite-link")).toHaveCount(0);
  expect(await scopesOf(api, id, player.email)).toEqual([...preset("operator")].sort());

  // The entry opened after adding; fewer permissions are saved from it, then it collapses.
  const scopes = entry.getByTestId("user-scopes");
  await expect(scopes).toBeVisible();
  await scopes.getByLabel("Start", { exact: true }).uncheck();
  await scopes.getByLabel("Make backups").uncheck();
  await snapTop(page, "server-users-entry");
  await entry.getByTestId("save-user").click();
  await expect(page.getByText(`Permissions of ${player.username} saved`)).toBeVisible();
  expect(await scopesOf(api, id, player.email)).toEqual(
    preset("operator")
      .filter((s) => s !== "server.start" && s !== "server.backup.create")
      .sort(),
  );
  await entry.getByRole("button", { name: player.username }).click();
  await expect(scopes).toBeHidden();

  // 2. An unknown address: an invitation, whose link is shown to copy.
  const newcomer = unique("newcomer");
  const email = `${newcomer}@example.com`;
  await add.getByLabel("Email").fill(email);
  await add.getByTestId("add-user-submit").click();
  const invite = section.getByTestId("invite-link");
  await expect(invite).toBeVisible();
  await expect(invite.getByRole("button", { name: "Copy the invite link" })).toBeVisible();
  const url = await invite.getByTestId("invite-url").inputValue();
  expect(url).toMatch(new RegExp(`^${baseURL}/auth/invite\\?token=[^&]+&email=`));
  await expect(section.locator(`[data-testid="server-user"][data-email="${email}"]`)).toContainText(
    "invited",
  );
  // The add form started over as a Viewer, not from the first user's choice.
  expect(await scopesOf(api, id, email)).toEqual([...preset("viewer")].sort());
  await snapTop(page, "server-users-invited");

  // The invitee follows the link in a browser of their own, chooses a password, sees the server.
  const theirs = await browser.newContext({ baseURL });
  const invitee = await theirs.newPage();
  await invitee.goto(url);
  await expect(invitee.getByRole("heading", { name: "Accept your invitation" })).toBeVisible();
  await expect(invitee.getByTestId("invite")).toContainText(email);
  await invitee.getByLabel("Username").fill(newcomer);
  await invitee.getByLabel("Password", { exact: true }).fill("newcomer-password-1");
  await invitee.getByLabel("Confirm password").fill("newcomer-password-2");
  await invitee.getByRole("button", { name: "Create my account" }).click();
  await expect(invitee.getByText("The passwords do not match")).toBeVisible();
  await invitee.getByLabel("Confirm password").fill("newcomer-password-1");
  await snapAt(invitee, "invite");
  await invitee.getByRole("button", { name: "Create my account" }).click();
  await expect(invitee).toHaveURL(/\/servers$/);
  await expect(invitee.getByText(serverName)).toBeVisible();
  await snapAt(invitee, "invite-accepted-servers");
  // The same link again, in yet another browser: refused with a clear message.
  const again = await (await browser.newContext({ baseURL })).newPage();
  await again.goto(url);
  await again.getByLabel("Username").fill(`${newcomer}x`);
  await again.getByLabel("Password", { exact: true }).fill("another-password-1");
  await again.getByLabel("Confirm password").fill("another-password-1");
  await again.getByRole("button", { name: "Create my account" }).click();
  await expect(again.getByTestId("invite-invalid")).toBeVisible();
  await snapAt(again, "invite-used");
  await again.context().close();
  await theirs.close();

  // 3. An OAuth client of this server: its secret is shown once.
  await page.getByRole("tab", { name: "OAuth clients" }).click();
  const clients = page.locator("#section-clients");
  await expect(clients.getByTestId("no-clients")).toBeVisible();
  await clients.getByTestId("new-client").click();
  const dialog = page.getByTestId("create-client");
  await dialog.getByLabel("Name", { exact: true }).fill("Status bot");
  await dialog.getByLabel("Description (optional)").fill("Posts the server state to our chat");
  await dialog.getByTestId("client-scopes").getByLabel("See whether it runs").check();
  await snapAt(page, "server-client-create");
  await dialog.getByTestId("create-client-submit").click();
  const shown = page.getByTestId("client-created");
  await expect(shown).toBeVisible();
  await expect(shown).toContainText("shown only now");
  const clientId = await shown.getByTestId("client-id").inputValue();
  const secret = await shown.getByTestId("client-secret").inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{48}$/);
  await snapAt(page, "server-client-secret");
  await shown.getByTestId("client-created-done").click();
  await expect(shown).toBeHidden();
  await expect(clients.getByTestId("server-client")).toContainText("Status bot");
  expect(await page.content()).not.toContain(secret);

  // The secret gets a token that sees this server's status and nothing global.
  const program = new PanelClient(baseURL!);
  const token = await program.call("POST", "/oauth2/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
  });
  expect(token.status).toBe(200);
  const bearer = token.body.access_token as string;
  expect((await program.get(`/api/servers/${id}/status`, { bearer })).status).toBe(200);
  expect((await program.get(`/api/servers/${id}/console`, { bearer })).status).toBe(403);
  expect((await program.get("/api/nodes", { bearer })).status).toBe(403);

  await clients.getByTestId("delete-client").click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(clients.getByTestId("no-clients")).toBeVisible();
  expect((await program.get(`/api/servers/${id}/status`, { bearer })).status).toBe(401);
});

test("with mail configured, inviting says the invitation was e-mailed instead of showing a link", async ({
  page,
  baseURL,
}) => {
  const { api, player, id } = await setup(baseURL!);
  // A real SMTP server on loopback takes the invitations.
  const inbox = new SmtpInbox();
  const smtpPort = await inbox.start();
  const mail = { "panel.email.provider": "smtp", "panel.email.host": `127.0.0.1:${smtpPort}` };
  expect((await api.post("/api/settings", { ...mail, "panel.email.from": "panel@example.com" })).status).toBe(
    204,
  );
  try {
    await page.goto(`/servers/view/${id}#users`);
    await login(page);
    const section = page.locator("#section-users");
    const add = section.getByTestId("add-user");

    const email = `${unique("mailed")}@example.com`;
    await add.getByLabel("Email").fill(email);
    await add.getByTestId("add-user-submit").click();
    await expect(page.getByText(`An invitation was e-mailed to ${email}`)).toBeVisible();
    await expect(section.getByTestId("invite-link")).toHaveCount(0);
    const entry = section.locator(`[data-testid="server-user"][data-email="${email}"]`);
    await expect(entry).toContainText("invited");
    expect((await inbox.nth(1)).to).toEqual([email]);
    await snapTop(page, "server-users-mailed");

    // Sending it again from the entry says so too.
    await page.getByText(`An invitation was e-mailed to ${email}`).waitFor({ state: "hidden" });
    await entry.getByRole("button", { name: "New invite link" }).click();
    await expect(page.getByText(`An invitation was e-mailed to ${email}`)).toBeVisible();
    expect((await inbox.nth(2)).to).toEqual([email]);

    // A registered user is added, not invited.
    await add.getByLabel("Email").fill(player.email);
    await add.getByTestId("add-user-submit").click();
    await expect(page.getByText(`${player.email} added`)).toBeVisible();
  } finally {
    expect((await api.put("/api/settings/panel.email.provider", { value: "" })).status).toBe(204);
    await inbox.stop();
  }
});

test("a user who is no administrator gets no invite link: the panel says an administrator must send it", async ({
  page,
  baseURL,
}) => {
  const { api, player, id } = await setup(baseURL!);
  const granted = await api.put(`/api/servers/${id}/user/${encodeURIComponent(player.email)}`, {
    scopes: ["server.users.view", "server.users.create", "server.users.edit"],
  });
  expect(granted.status, granted.text).toBe(204);
  await page.goto(`/servers/view/${id}#users`);
  await login(page, player.email, player.password);
  await page.getByRole("tab", { name: "Users" }).click();
  const section = page.locator("#section-users");
  const add = section.getByTestId("add-user");
  await expect(add).toContainText("an administrator must send them their invite link");

  // No mail provider: the permission is recorded, the link is kept from this user.
  const email = `${unique("unsent")}@example.com`;
  await add.getByLabel("Email").fill(email);
  await add.getByTestId("add-user-submit").click();
  const notice = section.getByTestId("invite-admin-needed");
  await expect(notice).toContainText("Ask an administrator to send it");
  await expect(section.getByTestId("invite-link")).toHaveCount(0);
  await expect(section.getByTestId("invite-url")).toHaveCount(0);
  const entry = section.locator(`[data-testid="server-user"][data-email="${email}"]`);
  await expect(entry).toContainText("invited");
  await snapTop(page, "server-users-invite-admin-needed");

  // Asking again from the entry says the same; the link is never on the page.
  await notice.getByRole("button", { name: "Done" }).click();
  await entry.getByRole("button", { name: "Send the invitation again" }).click();
  await expect(section.getByTestId("invite-admin-needed")).toBeVisible();
  expect(await page.content()).not.toContain("/auth/invite?token=");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the users and OAuth client sections fit 390 px", async ({ page, baseURL }) => {
    const { api, player, id } = await setup(baseURL!);
    expect(
      (await api.put(`/api/servers/${id}/user/${player.email}`, { scopes: ["server.console"] })).status,
    ).toBe(204);
    const invited = await api.put(`/api/servers/${id}/user/${unique("phone")}@example.com`, { scopes: [] });
    expect(invited.status).toBe(200);

    await page.goto(`/servers/view/${id}#users`);
    await login(page);
    const section = page.locator("#section-users");
    const entry = section.locator(`[data-testid="server-user"][data-email="${player.email}"]`);
    await entry.getByRole("button", { name: player.username }).click();
    await expect(entry.getByTestId("user-scopes")).toBeVisible();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await snapTop(page, "server-users-phone");
    await section.getByText("Users of this server").scrollIntoViewIfNeeded();
    await snapView(page, "server-users-phone-entry");

    // Inviting from the phone as an Operator: the presets, the picker, the link and its copy button fit.
    const add = section.getByTestId("add-user");
    const pocket = `${unique("pocket")}@example.com`;
    await add.getByLabel("Email").fill(pocket);
    await add
      .getByTestId("preset-choice")
      .getByRole("radio", { name: /^Operator/ })
      .check();
    await add.getByTestId("preset-choice").scrollIntoViewIfNeeded();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await snapView(page, "server-users-phone-presets");
    await add
      .getByTestId("preset-choice")
      .getByRole("radio", { name: /^Custom/ })
      .check();
    await expect(add.getByTestId("add-user-scopes")).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await add.getByTestId("add-user-scopes").scrollIntoViewIfNeeded();
    await snapView(page, "server-users-phone-custom");
    await add
      .getByTestId("preset-choice")
      .getByRole("radio", { name: /^Operator/ })
      .check();
    await add.getByTestId("add-user-submit").click();
    await expect(section.getByTestId("invite-link")).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await snapView(page, "server-users-phone-invite");
    expect(await scopesOf(api, id, pocket)).toEqual([...preset("operator")].sort());

    await page.getByRole("tab", { name: "OAuth clients" }).click();
    await page.locator("#section-clients").getByTestId("new-client").click();
    const dialog = page.getByTestId("create-client");
    await expect(dialog).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await snapAt(page, "server-client-create-phone");
    await dialog.getByLabel("Name", { exact: true }).fill("Phone bot");
    await dialog.getByTestId("create-client-submit").click();
    await expect(page.getByTestId("client-secret")).toBeVisible();
    await snapView(page, "server-client-secret-phone");
    await page.getByTestId("client-created-done").click();
    await expect(page.locator("#section-clients").getByTestId("server-client")).toContainText("Phone bot");
    await snapView(page, "server-clients-phone");

    // The invite screen, as the invitee sees it on their phone.
    const url = new URL(invited.body.invite.url);
    await page.context().clearCookies();
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page.getByRole("heading", { name: "Accept your invitation" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await snapAt(page, "invite-phone");
  });
});
