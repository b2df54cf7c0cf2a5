import type { BrowserContext, Page } from "@playwright/test";
import { PROBE_MS } from "../../src/offline/network.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import type { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, firstListed, login, newServerId, snap, unique } from "./helpers.ts";

// Issue 11, offline first: the lists a user visited stay readable offline (the service worker
// serves the app, IndexedDB the last-known lists), say how old they are, claim no live status and
// offer no action that needs the panel. Back online they refresh by themselves; logout wipes them.

// Each test here goes offline and back, with the service worker in between: slower than most.
test.describe.configure({ timeout: 120_000 });

/** An echo server on the local node under a fresh name. */
async function newEchoServer(api: PanelClient, prefix: string) {
  const id = newServerId();
  const name = firstListed(prefix);
  const made = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0 });
  expect(made.status, made.text).toBe(200);
  return { id, name };
}

const LISTS = [
  { path: "/servers", entry: "server-entry" },
  { path: "/nodes", entry: "node-entry" },
  { path: "/users", entry: "user-entry" },
  { path: "/templates", entry: "template-entry" },
] as const;

/**
 * What the last-known database keeps (the page's lists and the service worker's answers): its keys,
 * or its values as text (Blobs read, the rest as JSON), to look for what must never be kept.
 */
const readKept = (page: Page, what: "keys" | "values") =>
  page.evaluate(
    (what) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open("outpost-last-known");
        open.onupgradeneeded = () => open.result.createObjectStore("lists");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction("lists").objectStore("lists");
          const all = (what === "keys" ? store.getAllKeys() : store.getAll()) as IDBRequest<unknown[]>;
          all.onsuccess = () => {
            open.result.close();
            const text = (v: unknown) =>
              what === "keys" ? String(v) : v instanceof Blob ? v.text() : JSON.stringify(v);
            Promise.all(all.result.map(text)).then(resolve, reject);
          };
          all.onerror = () => reject(all.error);
        };
      }),
    what,
  );

/**
 * A kept list's key (the account's e-mail for the avatar is kept beside them, as "….self", and the
 * servers' last known statuses as "….statuses").
 */
const isKeptList = (k: string) =>
  k.startsWith("lastKnown.") && !k.endsWith(".self") && !k.endsWith(".statuses");

/** Every key kept in the last-known database. */
const keptKeys = (page: Page) => readKept(page, "keys");

/**
 * Opens a page signed out, signs in as the administrator and waits until the service worker holds
 * the app and controls this page: what must be so before the network goes.
 */
async function signInUnderServiceWorker(page: Page, path: string) {
  await page.goto(path);
  await login(page);
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
}

/**
 * The network comes back and the banner goes. Chromium's emulation loads a page offline with
 * navigator.onLine true and so sends no "online" event on return (a real browser does): the page
 * learns it from its next answered request, a list's poll or its probe every PROBE_MS.
 */
async function goBackOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await expect(page.getByTestId("offline-banner")).toBeHidden({ timeout: PROBE_MS + 10_000 });
}

/** Each list, visited offline, shows its kept items under the banner with their age. */
async function expectListsKeptOffline(page: Page, opts: { screenshots?: boolean } = {}) {
  for (const list of LISTS) {
    await page.goto(list.path);
    await expect(page.getByTestId("offline-banner")).toBeVisible();
    await expect(page.getByTestId(list.entry).first()).toBeVisible();
    await expect(page.getByTestId("last-known")).toContainText("Last known at");
    if (opts.screenshots) await snap(page, `offline${list.path.replace("/", "-")}`);
  }
}

test("offline: the lists show their last-known items with their age; back online they refresh; logout wipes them", async ({
  page,
  context,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const { id, name: serverName } = await newEchoServer(api, "offline-");
  const template = unique("offline-tpl-");
  expect((await api.put(`/api/templates/0/${template}`, echoDefinition({ display: template }))).status).toBe(
    204,
  );

  await signInUnderServiceWorker(page, "/servers");
  await expect(page).toHaveURL(/\/servers$/);

  for (const list of LISTS) {
    await page.goto(list.path);
    await expect(page.getByTestId(list.entry).first()).toBeVisible();
    await expect(page.getByTestId("last-known")).toHaveCount(0);
  }
  await expect.poll(async () => (await keptKeys(page)).filter(isKeptList).length).toBe(4);
  // The service worker kept the lists' answers, and nothing else (no account, session, file or
  // single-server answer): keys are "answer.<account>.<path and query>".
  const answers = (await keptKeys(page)).filter((k) => k.startsWith("answer."));
  const paths = answers.map((k) => new URL(k.replace(/^answer\.\d+\./, ""), baseURL).pathname);
  for (const list of ["/api/servers", "/api/nodes", "/api/users", "/api/templates"])
    expect(paths).toContain(list);
  for (const path of paths) expect(path).toMatch(/^\/api\/(servers|nodes|users|templates(\/[^/]+)?)$/);
  await page.goto("/nodes");
  await expect(page.getByTestId("reachable").first()).toHaveAttribute("data-reachable", "true");

  await context.setOffline(true);
  await expectListsKeptOffline(page, { screenshots: true });
  await page.goto("/servers");
  await expect(page.getByTestId("server-entry").filter({ hasText: serverName })).toBeVisible();
  await expect(page.getByText("The servers could not be loaded")).toHaveCount(0);
  // No stale status and no action that would fail: "New server" says why it is disabled.
  await expect(page.getByRole("button", { name: "New server" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "New server" })).toHaveAttribute(
    "title",
    "Not available offline",
  );
  await page.goto("/nodes");
  await expect(page.getByTestId("reachable").first()).toHaveAttribute("data-reachable", "unknown");
  await expect(page.getByTestId("reachable").first()).toHaveText("Unknown");
  await page.goto("/templates");
  await expect(page.getByTestId("template-entry").filter({ hasText: template })).toBeVisible();

  // Without the page's own copies, the service worker's kept answers still fill the lists.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("outpost-last-known");
        open.onsuccess = () => {
          const store = open.result.transaction("lists", "readwrite").objectStore("lists");
          const all = store.getAllKeys();
          all.onsuccess = () => {
            for (const k of all.result) if (String(k).startsWith("lastKnown.")) store.delete(k);
            store.transaction.oncomplete = () => {
              open.result.close();
              resolve();
            };
          };
        };
        open.onerror = () => reject(open.error);
      }),
  );
  await expectListsKeptOffline(page);
  await page.goto("/servers");
  await expect(page.getByTestId("server-entry").filter({ hasText: serverName })).toBeVisible();

  // A phone sized window.
  await page.setViewportSize({ width: 360, height: 640 });
  for (const list of LISTS) {
    await page.goto(list.path);
    await expect(page.getByTestId("offline-banner")).toBeVisible();
    await expect(page.getByTestId("last-known")).toBeVisible();
    await expect(page.getByTestId(list.entry).first()).toBeVisible();
    // usable at 360 px: nothing scrolls sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await snap(page, `offline${list.path.replace("/", "-")}-phone`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back online: the banner goes and the list re-reads by itself (a server added meanwhile shows).
  await page.goto("/nodes");
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await goBackOnline(context, page);
  await expect(page.getByTestId("last-known")).toHaveCount(0);
  await expect(page.getByTestId("reachable").first()).toHaveAttribute("data-reachable", "true");
  await page.goto("/servers");
  await expect(page.getByTestId("server-entry").filter({ hasText: serverName })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  const { id: laterId, name: later } = await newEchoServer(api, "offline-later-");
  await expect(page.getByTestId("server-entry").filter({ hasText: serverName })).toBeVisible();
  await expect(page.getByTestId("server-entry").filter({ hasText: later })).toHaveCount(0);
  await goBackOnline(context, page);
  await expect(page.getByTestId("server-entry").filter({ hasText: later })).toBeVisible();
  await expect(page.getByTestId("last-known")).toHaveCount(0);

  // Logout wipes every kept list.
  expect((await keptKeys(page)).length).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect.poll(() => keptKeys(page)).toEqual([]);

  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  expect((await api.delete(`/api/servers/${laterId}`)).status).toBe(204);
  expect((await api.delete(`/api/templates/0/${template}`)).status).toBe(204);
});

test("offline: a server's page shows what it last showed (name, console lines, its last known status) and its actions disabled", async ({
  page,
  context,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const { id, name } = await newEchoServer(api, "offline-page-");

  await signInUnderServiceWorker(page, `/servers/view/${id}`);
  await expect(page.getByTestId("server-title")).toHaveText(name);
  await page.getByTestId("action-start").click();
  const output = page.getByTestId("console-output");
  await expect(output).toContainText("ready hello on 25565");
  await page.getByTestId("console-input").fill("seen before going offline");
  await page.getByTestId("console-input").press("Enter");
  await expect(output).toContainText("pong seen before going offline");

  // The page keeps what it shows for a visit offline (every few seconds while it changes).
  await expect
    .poll(() =>
      page.evaluate(
        (serverId) =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open("outpost-last-known");
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const store = open.result.transaction("lists").objectStore("lists");
              const all = store.getAll(IDBKeyRange.bound("lastKnown.", "lastKnown.\uffff"));
              all.onsuccess = () => {
                open.result.close();
                const page = all.result.find((v) => v?.value?.server?.id === serverId);
                resolve(page ? page.value.console.join("\n") : "");
              };
            };
          }),
        id,
      ),
    )
    .toContain("pong seen before going offline");
  // Its status as delivered, kept within a few seconds.
  await expect
    .poll(() =>
      readKept(page, "values").then((values) => values.some((v) => v.includes(`"${id}":{"status":"online"`))),
    )
    .toBe(true);

  // Going offline while the page is open: the header shows the last status delivered with its time
  // (as the kept page does), not "unknown"; actions say why not.
  await context.setOffline(true);
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  const head = page.locator(".server-head");
  await expect(head.locator(".lifecycle .status")).toHaveAttribute("data-status", "online");
  await expect(head.getByTestId("known-at")).toContainText("Last known at");
  // The console does not claim to be live.
  await expect(page.getByTestId("socket-state")).toHaveAttribute("data-state", "offline");
  await expect(page.getByTestId("action-stop")).toBeDisabled();
  await expect(page.getByTestId("action-stop")).toHaveAttribute("title", "Not available offline");
  for (const [label, width, height] of [
    ["desktop", 1280, 800],
    ["phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(head.getByTestId("known-at")).toBeVisible();
    // Polled: right after the resize the sidebar is still sliding out (wider for a moment); a real overflow stays.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(width);
    // The top of the page, once the sidebar's slide after the resize is over.
    await snap(page, `offline-open-server-head-${label}`, {
      fullPage: false,
      before: () => page.evaluate(() => scrollTo(0, 0)).then(() => page.waitForTimeout(400)),
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Reloaded offline: the page it last showed, from this device.
  await page.reload();
  await expect(page.getByTestId("kept-server-page")).toBeVisible();
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await expect(page.getByTestId("server-title")).toHaveText(name);
  await expect(page.getByTestId("kept-console")).toContainText("ready hello on 25565");
  await expect(page.getByTestId("kept-console")).toContainText("pong seen before going offline");
  // The node's lines carry the live console's tag, not the raw prefix; it opens at the last lines.
  const kept = page.getByTestId("kept-console");
  await expect(kept).not.toContainText("[DAEMON]");
  await expect(kept.locator(".console-daemon").first()).toHaveText("Node");
  expect(await kept.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeLessThanOrEqual(
    2,
  );
  await expect(page.getByTestId("last-known")).toContainText("Last known at");
  // The status its socket last delivered, with its time.
  await expect(page.locator(".lifecycle .status")).toHaveAttribute("data-status", "online");
  await expect(page.getByTestId("known-at")).toContainText("Last known at");
  // The actions of the state it was last known in (it ran: stop and kill, not start), disabled.
  for (const action of ["stop", "kill"]) {
    await expect(page.getByTestId(`action-${action}`)).toBeDisabled();
    await expect(page.getByTestId(`action-${action}`)).toHaveAttribute("title", "Not available offline");
  }
  await expect(page.getByTestId("action-start")).toHaveCount(0);
  await snap(page, "offline-server-page");
  await page.setViewportSize({ width: 360, height: 640 });
  await page.reload();
  await expect(page.getByTestId("kept-console")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await snap(page, "offline-server-page-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back online: the live page by itself, the banner gone.
  await goBackOnline(context, page);
  await expect(page.getByTestId("kept-server-page")).toHaveCount(0);
  await expect(page.getByTestId("console-output")).toContainText("pong seen before going offline");
  await expect(page.locator(".lifecycle .status")).toHaveAttribute("data-status", "online");
  await expect(page.getByTestId("action-stop")).toBeEnabled();

  expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});

// Issue 25: the status and usage kept for offline are what the live channel delivered; offline the
// list shows them with their time and reads no server's status or stats.
test("offline: the server list shows each server's last known status and usage with their time, and reads none", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const name = firstListed("known-");
  const id = newServerId();
  expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0 })).status).toBe(200);
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  try {
    const perServer: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/servers\/[^/]+\/(status|stats)$/.test(new URL(request.url()).pathname))
        perServer.push(request.url());
    });
    await page.goto("/servers");
    await login(page);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    const entry = page.getByTestId("server-entry").filter({ hasText: name });
    await expect(entry.locator(".status")).toHaveAttribute("data-status", "online");
    await expect(entry.getByTestId("server-usage")).toBeVisible({ timeout: 15_000 });
    // Pushed over /api/live, not read per server; kept within a few seconds of coming.
    expect(perServer).toEqual([]);
    const kept = () =>
      readKept(page, "values").then((values) => {
        const statuses = values.map((v) => JSON.parse(v)).find((v) => v?.value?.[id]?.status);
        return statuses?.value[id] as { status: string; stats?: unknown } | undefined;
      });
    await expect.poll(async () => (await kept())?.status, { timeout: 15_000 }).toBe("online");
    await expect.poll(async () => !!(await kept())?.stats, { timeout: 15_000 }).toBe(true);

    await context.setOffline(true);
    for (const [label, width, height] of [
      ["desktop", 1280, 800],
      ["phone", 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await expect(page.getByTestId("offline-banner")).toBeVisible();
      await expect(entry.locator(".status")).toHaveAttribute("data-status", "online");
      await expect(entry.getByTestId("known-at")).toContainText("Last known at");
      await expect(entry.getByTestId("server-usage")).toBeVisible();
      await expect(entry.getByRole("button", { name: `Stop ${name}` })).toBeDisabled();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snap(page, `offline-known-status-${label}`);
    }
    expect(perServer).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await goBackOnline(context, page);
    await expect(entry.getByTestId("known-at")).toHaveCount(0);
  } finally {
    await api.post(`/api/servers/${id}/stop?wait`);
    await api.delete(`/api/servers/${id}`);
  }
});

test("without the live socket the list polls each server, and what the polls read is kept for offline", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const name = firstListed("polled-");
  const id = newServerId();
  expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), name, node: 0 })).status).toBe(200);
  expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
  try {
    // The socket cannot be had: every attempt is closed at once.
    await page.routeWebSocket(/\/api\/live$/, (ws) => ws.close());
    const polled: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith(`/api/servers/${id}/`)) polled.push(path.slice(path.lastIndexOf("/") + 1));
    });
    await page.goto("/servers");
    await login(page);
    const entry = page.getByTestId("server-entry").filter({ hasText: name });
    // Only servers on screen are polled, and other specs' servers may fill the first screen.
    await entry.scrollIntoViewIfNeeded();
    await expect(entry.locator(".status")).toHaveAttribute("data-status", "online");
    await expect(entry.getByTestId("server-usage")).toBeVisible();
    expect(polled).toContain("status");
    expect(polled).toContain("stats");
    const kept = () =>
      readKept(page, "values").then((values) =>
        values.some((v) => v.includes(`"${id}":{"status":"online","stats":{`)),
      );
    await expect.poll(kept, { timeout: 15_000 }).toBe(true);
  } finally {
    await api.post(`/api/servers/${id}/stop?wait`);
    await api.delete(`/api/servers/${id}`);
  }
});

/** Every value kept in the last-known database, as text. */
const keptValues = async (page: Page) => (await readKept(page, "values")).join("\n");

test("offline: a node's and a user's page show their list's last-known copy, read-only; one never listed is not available", async ({
  page,
  context,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const nodeName = unique("offline-node-");
  const node = await api.post("/api/nodes", {
    name: nodeName,
    publicHost: "play.example.com",
    publicPort: 27015,
    privateHost: "127.0.0.1",
    privatePort: await freePort(),
    sftpPort: await freePort(),
  });
  expect(node.status, node.text).toBe(200);
  const nodeId = node.body.id as number;
  const secret = (await api.get(`/api/nodes/${nodeId}/deployment`)).body.config.secret as string;
  expect(secret.length).toBeGreaterThan(10);
  // "aa…" sorts into the users list's first page, the one kept.
  const username = unique("aaoffline");
  const user = await api.post("/api/users", {
    username,
    email: `${username}@example.com`,
    password: "offline-user-password-1",
  });
  expect(user.status, user.text).toBe(200);
  const userId = user.body.id as number;

  await signInUnderServiceWorker(page, "/nodes");
  await expect(page).toHaveURL(/\/nodes$/);
  await expect(page.getByTestId("node-entry").filter({ hasText: nodeName })).toBeVisible();
  await page.goto("/users");
  await expect(page.getByTestId("user-entry").filter({ hasText: username })).toBeVisible();
  // Both pages seen online (the node's shows its deployment, with the secret).
  await page.goto(`/nodes/view/${nodeId}`);
  await expect(page.getByTestId("deployment-config")).toContainText(secret);
  await page.goto(`/users/view/${userId}`);
  await expect(page.getByTestId("user-title")).toHaveText(username);
  await expect.poll(async () => (await keptKeys(page)).filter(isKeptList).length).toBe(2);

  await context.setOffline(true);
  // The node: its list's copy with its age; nothing live claimed, nothing changed, no secret.
  await page.goto(`/nodes/view/${nodeId}`);
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await expect(page.getByTestId("node-title")).toHaveText(nodeName);
  await expect(page.getByTestId("last-known")).toContainText("Last known at");
  await expect(page.getByText("play.example.com:27015")).toBeVisible();
  for (const badge of await page.getByTestId("reachable").all()) {
    await expect(badge).toHaveAttribute("data-reachable", "unknown");
  }
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(nodeName);
  await expect(page.getByLabel("Name", { exact: true })).not.toBeEditable();
  const save = page.getByRole("button", { name: "Save", exact: true });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAttribute("title", "Not available offline");
  const remove = page.getByRole("button", { name: "Delete", exact: true });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAttribute("title", "Not available offline");
  await expect(page.getByTestId("deployment-offline")).toHaveText("Not available offline");
  await expect(page.getByTestId("deployment-config")).toHaveCount(0);
  await snap(page, "offline-node-page");
  // The node's secret was never kept on the device (page copies and service worker answers).
  expect(await keptValues(page)).not.toContain(secret);

  // The user: the same, from the users list's copy.
  await page.goto(`/users/view/${userId}`);
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await expect(page.getByTestId("user-title")).toHaveText(username);
  await expect(page.getByTestId("last-known")).toContainText("Last known at");
  await expect(page.getByTestId("user-details").getByLabel("Username")).toHaveValue(username);
  await expect(page.getByTestId("user-details").getByLabel("Username")).not.toBeEditable();
  await expect(page.getByTestId("scopes-offline")).toHaveText("Not available offline");
  for (const name of ["Save", "Set password", "Delete"]) {
    const button = page.getByRole("button", { name, exact: true });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("title", "Not available offline");
  }
  await snap(page, "offline-user-page");
  // One's own page offline offers no delete either (the session cannot be read offline).
  const selfId = (await api.get("/api/self")).body.id as number;
  await page.goto(`/users/view/${selfId}`);
  await expect(page.getByTestId("user-title")).toHaveText(admin.username);
  await expect(page.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
  await page.setViewportSize({ width: 360, height: 640 });
  for (const path of [`/nodes/view/${nodeId}`, `/users/view/${userId}`]) {
    await page.goto(path);
    await expect(page.getByTestId("last-known")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await snap(page, `offline-${path.split("/")[1]}-page-phone`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Never listed on this device: said plainly, with the way back.
  for (const [path, back] of [
    ["/nodes/view/99999", "Back to the nodes"],
    ["/users/view/99999", "Back to the users"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "Not available offline" })).toBeVisible();
    await expect(page.getByRole("link", { name: back })).toBeVisible();
  }

  // Back online: the live page by itself, the banner and the age gone, editing back.
  await page.goto(`/users/view/${userId}`);
  await expect(page.getByTestId("last-known")).toBeVisible();
  await goBackOnline(context, page);
  await expect(page.getByTestId("last-known")).toHaveCount(0);
  await expect(page.getByTestId("user-scopes")).toBeVisible();
  await expect(page.getByTestId("user-details").getByLabel("Username")).toBeEditable();
  await expect(page.getByRole("button", { name: "Delete", exact: true })).toBeEnabled();

  expect((await api.delete(`/api/nodes/${nodeId}`)).status).toBe(204);
  expect((await api.delete(`/api/users/${userId}`)).status).toBe(204);
});

test("another account signing in on the same device (the first never logged out) wipes the first one's kept data", async ({
  page,
  context,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const name = unique("e2eowner");
  const other = await api.post("/api/users", {
    username: name,
    email: `${name}@example.com`,
    password: "other-password-1",
  });
  expect(other.status).toBe(200);

  await signInUnderServiceWorker(page, "/servers");
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/nodes");
  await expect(page.getByTestId("node-entry").first()).toBeVisible();
  await expect.poll(async () => (await keptKeys(page)).filter(isKeptList).length).toBe(2);
  const first = await keptKeys(page);

  // The session ends without a logout (cookies gone); another account signs in here.
  await context.clearCookies();
  await page.goto("/auth/login");
  await login(page, `${name}@example.com`, "other-password-1");
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await page.goto("/servers");
  await expect.poll(async () => (await keptKeys(page)).filter(isKeptList).length).toBe(1);
  const now = await keptKeys(page);
  for (const key of first) if (key !== "owner") expect(now).not.toContain(key);
  for (const key of now) if (key !== "owner") expect(key).toContain(`.${other.body.id}.`);
});

test("offline: the header keeps the company name and the avatar; the users list visited before shows its copy", async ({
  page,
  context,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const company = unique("Blue Fox ");
  expect((await api.put("/api/settings/panel.settings.companyName", { value: company })).status).toBe(204);
  const { id } = await newEchoServer(api, "hdr-");
  try {
    await signInUnderServiceWorker(page, "/servers");
    await expect(page).toHaveURL(/\/servers$/);
    await expect(page.locator(".topbar .brand")).toHaveText(company);
    await expect(page.locator(".topbar img.avatar")).toHaveAttribute("data-hash", /^[0-9a-f]{32}$/);
    const hash = await page.locator(".topbar img.avatar").getAttribute("data-hash");
    // The users list, visited in the app.
    await page.getByRole("link", { name: "Users" }).first().click();
    await expect(page.getByTestId("user-entry").first()).toBeVisible();
    await page.getByRole("link", { name: "Servers" }).first().click();

    await context.setOffline(true);
    // Reloaded offline: the brand and the avatar as they were.
    await page.goto("/servers");
    await expect(page.getByTestId("offline-banner")).toBeVisible();
    await expect(page.locator(".topbar .brand")).toHaveText(company);
    await expect(page.locator(".topbar img.avatar")).toHaveAttribute("data-hash", hash!);
    // Into the users list through the app (no reload): its last-known copy, never "could not be loaded".
    await page.getByRole("link", { name: "Users" }).first().click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByTestId("user-entry").first()).toBeVisible();
    await expect(page.getByTestId("last-known")).toContainText("Last known at");
    await expect(page.getByText("could not be loaded")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("user-entry").first()).toBeVisible();
    await expect(page.getByText("could not be loaded")).toHaveCount(0);
    await snap(page, "offline-users-header");
  } finally {
    await context.setOffline(false);
    expect((await api.put("/api/settings/panel.settings.companyName", { value: "Outpost" })).status).toBe(
      204,
    );
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  }
});
