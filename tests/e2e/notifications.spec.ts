import { randomBytes } from "node:crypto";
import { HookListener, PushReceiver } from "../support/alert-receivers.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, snap } from "./helpers.ts";

// Alerts (issue 24) in the browser: the account page's Notifications section, and the service
// worker showing a Web Push message and opening the server's page when it is tapped.

test("the account page adds and removes webhook and e-mail channels; the secret is shown once", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  await api.delete("/api/self/notifications");
  await page.goto("/self");
  await login(page);
  const section = page.getByTestId("notifications");
  await expect(section).toBeVisible();
  await expect(section.getByTestId("no-channels")).toBeVisible();

  // The Discord preset checks the address's shape as it is typed (issue 41).
  await section.getByLabel("Discord").check();
  await section.getByLabel("Webhook URL").fill("https://discord.com/channels/1/2");
  await expect(section.getByText(/A Discord webhook address looks like/)).toBeVisible();
  await expect(section.getByTestId("add-webhook")).toBeDisabled();
  await section.getByLabel("Webhook URL").fill("https://discord.com/api/webhooks/123/abc-DEF");
  await expect(section.getByText("Alerts arrive as Discord messages that mention no one.")).toBeVisible();
  await expect(section.getByTestId("add-webhook")).toBeEnabled();
  await section.getByLabel("Another service (signed JSON)").check();

  // Only the events chosen go with the new channel.
  await section.getByLabel("A sign-in from a new device").uncheck();
  await section.getByLabel("Webhook URL").fill("http://127.0.0.1:9/outpost-hook");
  await section.getByTestId("add-webhook").click();
  await expect(section.getByTestId("webhook-secret")).toHaveValue(/^[0-9a-f]{64}$/);
  await section.getByTestId("add-email").click();
  const channels = section.getByTestId("channel");
  await expect(channels).toHaveCount(2);
  await expect(channels.first()).toContainText("http://127.0.0.1:9/outpost-hook");
  await expect(channels.first()).toContainText("A server crashed");
  await expect(channels.first()).not.toContainText("A sign-in from a new device");
  // Send test: nothing listens on port 9, so the panel says it was not delivered, and why.
  await channels.first().getByTestId("test-channel").click();
  await expect(channels.first().getByTestId("channel-tested")).toHaveText(
    "Not delivered: the other end did not answer or was busy. Real alerts are tried again for a while.",
  );
  const listed = (await api.get("/api/self/notifications")).body as { type: string; events: string[] }[];
  expect(listed.map((c) => c.type)).toEqual(["webhook", "email"]);
  expect(listed[0].events).not.toContain("account.newDevice");

  // As a person sees it: the section scrolled up to just under the top bar, on a desktop and a phone.
  const panel = page.locator(".panel", { has: section });
  const shoot = (name: string, below = 0) =>
    snap(page, name, {
      fullPage: false,
      before: () =>
        panel.evaluate((el, by) => {
          window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72 + by);
        }, below),
    });
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot("notifications-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot("notifications-phone");
  await shoot("notifications-phone-list", 500);

  // The secret is not shown again after a reload.
  await page.reload();
  await expect(section.getByTestId("channel")).toHaveCount(2);
  await expect(section.getByTestId("webhook-secret")).toHaveCount(0);
  await section.getByTestId("remove-channel").first().click();
  await expect(section.getByTestId("channel")).toHaveCount(1);
  await section.getByTestId("remove-channel").click();
  await expect(section.getByTestId("no-channels")).toBeVisible();
});

test("a crash's Web Push message, delivered to the service worker, shows a notification that opens the server", async ({
  page,
  context,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  await api.delete("/api/self/notifications");
  const hooks = new HookListener();
  const base = await hooks.start();
  const push = new PushReceiver();
  try {
    // The panel's own message for a real crash, taken at a push endpoint the test holds and
    // decrypted (RFC 8291): what a browser's push service would hand this browser.
    const id = randomBytes(4).toString("hex");
    const name = "Push crash";
    const made = await api.put(`/api/servers/${id}`, {
      ...echoDefinition({ run: { command: "sh -c 'echo up; sleep 1; exit 3'", stop: "stop" } }),
      name,
      node: 0,
    });
    expect(made.status, made.text).toBe(200);
    const channel = await api.post("/api/self/notifications", {
      type: "webpush",
      events: ["server.crashed"],
      servers: [id],
      subscription: push.subscription(`${base}/push/e2e`),
    });
    expect(channel.status, channel.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    const message = push.decrypt((await hooks.nth("/push/e2e", 1)).body);
    expect(JSON.parse(message)).toMatchObject({ title: `${name} crashed` });

    await context.grantPermissions(["notifications"], { origin: baseURL });
    await page.goto("/self");
    await login(page);
    await expect(page.getByTestId("notifications")).toBeVisible();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

    // Chromium's DevTools protocol hands the message to the worker as a push service would.
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(baseURL!) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: new URL(baseURL!).origin,
      registrationId: await registration,
      data: message,
    });

    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          data: n.data,
        })),
      );
    await expect.poll(async () => (await shown()).length).toBe(1);
    const [notification] = await shown();
    expect(notification.title).toBe(`${name} crashed`);
    expect(notification.body).toContain(name);
    expect(notification.data).toEqual({ url: `/servers/view/${id}` });

    // Tapped: the worker's notificationclick handler sends the app to the server's page.
    const [worker] = context.serviceWorkers();
    await worker.evaluate(async () => {
      const sw = self as unknown as ServiceWorkerGlobalScope;
      const [tapped] = await sw.registration.getNotifications();
      sw.dispatchEvent(new NotificationEvent("notificationclick", { notification: tapped }));
    });
    await expect(page).toHaveURL(new RegExp(`/servers/view/${id}$`));
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expect.poll(async () => (await shown()).length).toBe(0);
    await api.delete(`/api/servers/${id}`);
  } finally {
    await api.delete("/api/self/notifications");
    await hooks.stop();
  }
});
