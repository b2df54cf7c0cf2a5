import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookListener, PushReceiver, verifyVapid } from "../support/alert-receivers.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError } from "../support/expect-api.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { headerText, mailToInbox, SmtpInbox } from "../support/smtp-inbox.ts";
import { admin, adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/** A real game process that crashes by itself: it starts, then exits with an error code. */
const crashing = (seconds: number) =>
  echoDefinition({ run: { command: `sh -c 'echo up; sleep ${seconds}; exit 3'`, stop: "stop" } });

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hmac = (secret: string, body: Buffer) =>
  `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;

/** Alerts (issue 24): channels per user, and what reaches them when something breaks. */
describe("alerts", () => {
  // The disk is measured often, so the near-limit alert comes within a stats tick (5 s).
  const panel = usePanel({ env: { OUTPOST_DISK_CHECK_SECONDS: "0.2" } });
  const hooks = new HookListener();
  const inbox = new SmtpInbox();
  const push = new PushReceiver();
  let base: string;
  let api: PanelClient;
  let user: PanelClient;
  let daemon: DaemonProcess | undefined;
  let remoteId: number;

  beforeAll(async () => {
    base = await hooks.start();
    api = await adminClient(panel());
    await mailToInbox(api, await inbox.start());
    user = await registeredClient(panel(), {
      username: "alertuser",
      email: "alerts@example.com",
      password: "alert-user-1",
    });
    ({ nodeId: remoteId, daemon } = await addRemoteNode(api, "alert-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
    await hooks.stop();
    await inbox.stop();
  });

  const create = async (id: string, definition: object, node = 0) => {
    const res = await api.put(`/api/servers/${id}`, { ...definition, name: `alert ${id}`, node, users: [] });
    expect(res.status, res.text).toBe(200);
  };

  it("refuses what is not a channel, with the field at fault", async () => {
    const post = (body: object) => api.post("/api/self/notifications", body);
    expectError(await post({ type: "sms", events: ["server.crashed"] }), 400, "ErrNotificationInvalid", {
      field: "type",
    });
    expectError(await post({ type: "email", events: [] }), 400, "ErrNotificationInvalid", {
      field: "events",
    });
    expectError(await post({ type: "email", events: ["server.exploded"] }), 400, "ErrUnknownEvent", {
      event: "server.exploded",
    });
    expectError(await post({ type: "webhook", events: ["server.crashed"] }), 400, "ErrFieldRequired", {
      field: "url",
    });
    expectError(
      await post({ type: "webhook", events: ["server.crashed"], url: "ftp://example.com/x" }),
      400,
      "ErrNotificationInvalid",
      { field: "url" },
    );
    expectError(await post({ type: "webpush", events: ["server.crashed"] }), 400, "ErrFieldRequired", {
      field: "subscription",
    });
    expectError(
      await post({
        type: "webpush",
        events: ["server.crashed"],
        subscription: { endpoint: `${base}/push/x`, keys: { p256dh: "AAAA", auth: "BBBB" } },
      }),
      400,
      "ErrNotificationInvalid",
      { field: "subscription.keys.p256dh" },
    );
    expectError(
      await post({ type: "email", events: ["server.crashed"], servers: ["0badc0de"] }),
      404,
      "ErrServerNotFound",
    );
    // Not a JSON object of the right shape: the schema's envelope, never a stack trace.
    expectError(await api.post("/api/self/notifications", { type: 3, events: "x" }), 400, "ErrFieldType");
  });

  it("lets a user name only servers they can see, and keeps loopback and private webhook addresses for administrators", async () => {
    await create("a1e70001", echoDefinition());
    await create("a1e70002", echoDefinition());
    const grant = await api.put(`/api/servers/a1e70001/user/${encodeURIComponent("alerts@example.com")}`, {
      scopes: ["server.view", "server.status"],
    });
    expect(grant.status, grant.text).toBe(204);
    const post = (body: object) => user.post("/api/self/notifications", body);
    expectError(
      await post({ type: "email", events: ["server.crashed"], servers: ["a1e70002"] }),
      404,
      "ErrServerNotFound",
      {
        server: "a1e70002",
      },
    );
    const mine = await post({ type: "email", events: ["server.crashed"], servers: ["a1e70001"] });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ type: "email", events: ["server.crashed"], servers: ["a1e70001"] });

    for (const url of [
      `${base}/hook`,
      "http://localhost:9/x",
      "http://10.1.2.3/x",
      "http://[::1]:80/x",
      "http://169.254.169.254/latest",
    ])
      expectError(
        await post({ type: "webhook", events: ["server.crashed"], url }),
        400,
        "ErrNotificationInvalid",
        {
          field: "url",
        },
      );
    // A push service is a public https address too, for anyone but an administrator.
    expectError(
      await post({
        type: "webpush",
        events: ["server.crashed"],
        subscription: push.subscription(`${base}/push/u`),
      }),
      400,
      "ErrNotificationInvalid",
      { field: "subscription.endpoint" },
    );

    // Each user sees and deletes only their own.
    const theirs = (await user.get("/api/self/notifications")).body as { id: number }[];
    expect(theirs.map((c) => c.id)).toEqual([mine.body.id]);
    expect((await api.get("/api/self/notifications")).body).toEqual([]);
    expectError(await api.delete(`/api/self/notifications/${mine.body.id}`), 404, "ErrNotificationNotFound");
    expect((await user.delete(`/api/self/notifications/${mine.body.id}`)).status).toBe(204);
    expect((await user.get("/api/self/notifications")).body).toEqual([]);
    expect((await new PanelClient(panel().url).get("/api/self/notifications")).status).toBe(401);
  });

  it("tells a crash by signed webhook (retried after a failure), e-mail and Web Push, and not a stop that was asked for", async () => {
    const id = "a1e70010";
    await create(id, crashing(2));
    const { body: config } = await new PanelClient(panel().url).get("/api/config");
    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      servers: [id],
      url: `${base}/hook`,
    });
    expect(hook.status, hook.text).toBe(200);
    const secret = hook.body.secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // The secret is shown once: never again in the list.
    const listed = await api.get("/api/self/notifications");
    expect(listed.text).not.toContain(secret);
    expect(
      (
        await api.post("/api/self/notifications", {
          type: "email",
          events: ["server.crashed"],
          servers: [id],
        })
      ).status,
    ).toBe(200);
    const subscribed = await api.post("/api/self/notifications", {
      type: "webpush",
      events: ["server.crashed"],
      servers: [id],
      subscription: push.subscription(`${base}/push/admin`),
    });
    expect(subscribed.status, subscribed.text).toBe(200);
    expect(subscribed.body.endpoint).toBe(`${base}/push/admin`);

    // The receiver is down at first: the hook is sent again after a back-off.
    hooks.answers.push(503);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);

    const first = await hooks.nth("/hook", 1);
    const retried = await hooks.nth("/hook", 2);
    for (const request of [first, retried]) {
      expect(request.method).toBe("POST");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["x-outpost-signature"]).toBe(hmac(secret, request.body));
    }
    const sent = JSON.parse(retried.body.toString());
    expect(sent).toMatchObject({
      event: "server.crashed",
      server: { id, name: `alert ${id}` },
      url: expect.stringMatching(new RegExp(`/servers/view/${id}$`)),
    });
    // A body changed on the way does not match the signature.
    expect(hmac(secret, Buffer.from(retried.body.toString().replace(id, "a1e7ffff")))).not.toBe(
      retried.headers["x-outpost-signature"],
    );

    const mail = await inbox.nth(1);
    expect(mail.to).toEqual([admin.email]);
    expect(mail.headers.get("subject")).toBe(`Outpost: alert ${id} crashed`);
    expect(mail.parts.get("text/plain")).toContain(`/servers/view/${id}`);

    const delivered = await hooks.nth("/push/admin", 1);
    expect(delivered.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(delivered.headers.ttl)).toBeGreaterThan(0);
    const { key } = verifyVapid(delivered.headers.authorization, base);
    expect(key).toBe(config.vapidPublicKey);
    const message = JSON.parse(push.decrypt(delivered.body));
    expect(message).toMatchObject({
      title: `alert ${id} crashed`,
      url: expect.stringMatching(new RegExp(`/servers/view/${id}$`)),
    });

    // Killed on request: the process ends by a signal, but nobody is told of a crash.
    const asked = "a1e70011";
    await create(asked, crashing(60));
    expect(
      (
        await api.post("/api/self/notifications", {
          type: "webhook",
          events: ["server.crashed"],
          servers: [asked],
          url: `${base}/asked`,
        })
      ).status,
    ).toBe(200);
    expect((await api.post(`/api/servers/${asked}/start`)).status).toBe(204);
    await waitUntil(
      async () => (await api.get(`/api/servers/${asked}/status`)).body.running === true,
      10_000,
    );
    expect((await api.post(`/api/servers/${asked}/kill`)).status).toBe(204);
    await waitUntil(
      async () => (await api.get(`/api/servers/${asked}/status`)).body.running === false,
      10_000,
    );
    // Nothing to wait for: no alert follows a kill, so a while in which none may come.
    await pause(1500);
    expect(hooks.to("/asked")).toEqual([]);
  });

  it("tells a crash one second after the server was made, its channel made before it (issue 41)", async () => {
    // The watch used to read its servers every 15 s: a server made and crashing in between was missed.
    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      url: `${base}/early`,
    });
    expect(hook.status, hook.text).toBe(200);
    const id = "a1e70015";
    await create(id, crashing(1));
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    // Well within the 15 s the old refresh took: the crash comes 1 s after the start.
    const told = await hooks.nth("/early", 1, 8_000);
    expect(told.headers["x-outpost-signature"]).toBe(hmac(hook.body.secret, told.body));
    expect(JSON.parse(told.body.toString())).toMatchObject({ event: "server.crashed", server: { id } });
    await api.delete(`/api/self/notifications/${hook.body.id}`);
  });

  it("tells each recipient in the language they chose: a German user gets a German e-mail (issue 41)", async () => {
    const id = "a1e70016";
    await create(id, crashing(1));
    const grant = await api.put(`/api/servers/${id}/user/${encodeURIComponent("alerts@example.com")}`, {
      scopes: ["server.view", "server.status"],
    });
    expect(grant.status, grant.text).toBe(204);
    expect((await user.put("/api/userSettings/locale", { value: "de_DE" })).status).toBeLessThan(300);
    const mailChannel = await user.post("/api/self/notifications", {
      type: "email",
      events: ["server.crashed"],
      servers: [id],
    });
    expect(mailChannel.status, mailChannel.text).toBe(200);
    // The administrator chose no language: the same crash reaches their hook in English.
    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      servers: [id],
      url: `${base}/english`,
    });
    expect(hook.status, hook.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);

    await waitUntil(async () => inbox.mails.some((m) => m.to.includes("alerts@example.com")), 10_000, 50);
    const mail = inbox.mails.find((m) => m.to.includes("alerts@example.com"));
    expect(headerText(mail?.headers.get("subject"))).toBe(`Outpost: alert ${id} ist abgestürzt`);
    expect(mail?.parts.get("text/plain")).toContain(
      `Der Server alert ${id} auf dem Knoten local wurde beendet, ohne dass dies angefordert wurde.`,
    );
    expect(mail?.parts.get("text/html")).toContain('<html lang="de-DE">');
    const told = JSON.parse((await hooks.nth("/english", 1)).body.toString());
    // Beside the text, the machine-readable fields stay as they are, with the text's language.
    expect(told).toMatchObject({ event: "server.crashed", title: `alert ${id} crashed`, lang: "en_US" });
    await user.delete(`/api/self/notifications/${mailChannel.body.id}`);
    await api.delete(`/api/self/notifications/${hook.body.id}`);
  });

  it("sends a test alert to one's own channel now and says what became of it; no one else's, and not without end (issue 41)", async () => {
    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      url: `${base}/tried`,
    });
    expect(hook.status, hook.text).toBe(200);
    const tried = await api.post(`/api/self/notifications/${hook.body.id}/test`);
    expect(tried.status, tried.text).toBe(200);
    expect(tried.body).toEqual({ outcome: "sent" });
    const got = await hooks.nth("/tried", 1);
    expect(got.headers["x-outpost-event"]).toBe("test");
    expect(got.headers["x-outpost-signature"]).toBe(hmac(hook.body.secret, got.body));
    expect(JSON.parse(got.body.toString())).toMatchObject({
      event: "test",
      title: "Test alert from Outpost",
    });

    // The far end refusing is told as such, at once (no retries for a test).
    hooks.answers.push(410);
    expect((await api.post(`/api/self/notifications/${hook.body.id}/test`)).body).toEqual({
      outcome: "failed",
    });
    // Another user's channel is not there for them; the activity log has the tries.
    expectError(
      await user.post(`/api/self/notifications/${hook.body.id}/test`),
      404,
      "ErrNotificationNotFound",
    );
    const log = await api.get("/api/self/activity?action=self.notification.test");
    expect(log.body.activity.length).toBeGreaterThanOrEqual(2);
    // At most five tries in ten minutes per user, whichever channel: then 429 with the wait.
    for (let i = 0; i < 3; i++) await api.post(`/api/self/notifications/${hook.body.id}/test`);
    const held = await api.post(`/api/self/notifications/${hook.body.id}/test`);
    expectError(held, 429, "ErrTooManyAttempts");
    expect(held.body.error.metadata.retryAfter).toBeGreaterThan(0);
    await api.delete(`/api/self/notifications/${hook.body.id}`);
  });

  it("refuses an address on Discord's hosts that is not one of its webhooks", async () => {
    const made = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      url: "https://discord.com/channels/123/456",
    });
    expectError(made, 400, "ErrNotificationInvalid", {
      field: "url",
      problem: "is not a Discord webhook address (https://discord.com/api/webhooks/…)",
    });
  });

  it("tells a crash on a remote node, and a node that stops answering", async () => {
    const id = "a1e70020";
    await create(id, crashing(1), remoteId);
    const made = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed", "node.unreachable"],
      servers: [id],
      url: `${base}/remote`,
    });
    expect(made.status, made.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    const crash = JSON.parse((await hooks.nth("/remote", 1)).body.toString());
    expect(crash).toMatchObject({
      event: "server.crashed",
      server: { id },
      node: { id: remoteId, name: "alert-remote" },
    });

    await daemon?.crash();
    const gone = JSON.parse((await hooks.nth("/remote", 2, 30_000)).body.toString());
    expect(gone).toMatchObject({ event: "node.unreachable", node: { id: remoteId, name: "alert-remote" } });
    expect(gone.url).toMatch(new RegExp(`/nodes/view/${remoteId}$`));
  });

  it("tells a failed install, and a disk at 90 % of its limit", async () => {
    const failing = "a1e70030";
    await create(
      failing,
      echoDefinition({ install: [{ type: "writefile", target: "../escape.txt", text: "x" }] }),
    );
    const full = "a1e70031";
    await create(
      full,
      echoDefinition({
        run: { command: `sh -c 'head -c 960000 /dev/zero > fill.bin; echo filled; sleep 60'`, stop: "stop" },
        limits: { diskMiB: 1 },
      }),
    );
    const made = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.installFailed", "disk.nearLimit"],
      servers: [failing, full],
      url: `${base}/state`,
    });
    expect(made.status, made.text).toBe(200);
    // The panel follows the server once it has read the new channel, and nothing outside tells
    // when: an install that fails before then goes unseen, so it fails again until the alert comes.
    const told = () => hooks.to("/state").map((r) => JSON.parse(r.body.toString()));
    const failedAndTold = async () => {
      expect((await api.post(`/api/servers/${failing}/install?wait=true`)).status).not.toBe(204);
      // The alert goes out a moment after the install ends.
      return waitUntil(async () => told().length > 0, 1000, 20).then(
        () => true,
        () => false,
      );
    };
    await waitUntil(failedAndTold, 20_000, 0);
    expect(told()[0]).toMatchObject({ event: "server.installFailed", server: { id: failing } });

    expect((await api.post(`/api/servers/${full}/start`)).status).toBe(204);
    await waitUntil(async () => told().some((t) => t.event === "disk.nearLimit"), 30_000, 50);
    const disk = told().find((t) => t.event === "disk.nearLimit");
    expect(disk).toMatchObject({ event: "disk.nearLimit", server: { id: full } });
    expect(disk.message).toContain("of 1 MiB");
    await api.post(`/api/servers/${full}/kill`);
  });

  it("tells a failed task once, when the panel sees its run", async () => {
    const id = "a1e70050";
    await create(id, echoDefinition());
    expect(
      (
        await api.post("/api/self/notifications", {
          type: "webhook",
          events: ["task.failed"],
          servers: [id],
          url: `${base}/task`,
        })
      ).status,
    ).toBe(200);
    // A console line to a server that is not running: the run fails on the node.
    const task = await api.post(`/api/servers/${id}/tasks`, {
      name: "Greet",
      operations: [{ type: "console", message: "hello" }],
    });
    expect(task.status, task.text).toBe(200);
    expect((await api.post(`/api/servers/${id}/tasks/${task.body.id}/run`)).status).toBe(202);
    await waitUntil(async () => {
      const { body } = await api.get(`/api/servers/${id}/tasks`);
      return body.tasks[0]?.lastRun?.success === false;
    }, 10_000);
    const told = JSON.parse((await hooks.nth("/task", 1)).body.toString());
    expect(told).toMatchObject({ event: "task.failed", server: { id } });
    expect(told.message).toContain("Greet");
    // Seen again in later lists and in the runs: still one alert for the one run.
    await api.get(`/api/servers/${id}/tasks`);
    await api.get(`/api/servers/${id}/tasks/${task.body.id}/runs`);
    // Nothing to wait for: a while in which no second alert may come.
    await pause(1000);
    expect(hooks.to("/task")).toHaveLength(1);
  });

  it("tells an account of a sign-in from a new device, and not from one it knows", async () => {
    const made = await user.post("/api/self/notifications", {
      type: "webhook",
      events: ["account.newDevice"],
      url: "https://example.invalid/hook",
    });
    // example.invalid does not resolve: refused like a private address.
    expectError(made, 400, "ErrNotificationInvalid", { field: "url" });

    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["account.newDevice"],
      url: `${base}/device`,
    });
    expect(hook.status).toBe(200);
    // The browser the admin signed in with before: known, nothing to tell.
    const again = new PanelClient(panel().url);
    again.cookies.set("outpost_device", api.cookies.get("outpost_device") ?? "");
    expect((await again.login(admin.email, admin.password)).status).toBe(200);
    // Another browser: told, with what it said it was and where it came from.
    const elsewhere = new PanelClient(panel().url);
    await elsewhere.prime();
    const signedIn = await elsewhere.post(
      "/auth/login",
      { email: admin.email, password: admin.password },
      { headers: { "user-agent": "Phone Browser 9" } },
    );
    expect(signedIn.status).toBe(200);
    const told = JSON.parse((await hooks.nth("/device", 1)).body.toString());
    expect(told).toMatchObject({ event: "account.newDevice" });
    expect(told.message).toContain("Phone Browser 9, from 127.0.0.1");
    expect(told.url).toMatch(/\/self$/);
    // Nothing to wait for: a while in which no second alert may come.
    await pause(1000);
    expect(hooks.to("/device")).toHaveLength(1);
  });

  it("checks a non-administrator's webhook address again when it delivers (an administrator's hook kept after demotion)", async () => {
    const id = "a1e70040";
    await create(id, crashing(1));
    const demoted = await registeredClient(panel(), {
      username: "demoted",
      email: "demoted@example.com",
      password: "demoted-user-1",
    });
    const me = (await demoted.get("/api/self")).body as { id: number };
    const scopes = (list: string[]) => api.put(`/api/users/${me.id}/perms`, { scopes: list });
    expect((await scopes(["login", "self.edit", "admin"])).status).toBe(204);
    await demoted.post("/auth/reauth");
    const made = await demoted.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      servers: [id],
      url: `${base}/demoted`,
    });
    expect(made.status, made.text).toBe(200);
    expect((await scopes(["login", "self.edit"])).status).toBe(204);
    expect(
      (
        await api.put(`/api/servers/${id}/user/${encodeURIComponent("demoted@example.com")}`, {
          scopes: ["server.view"],
        })
      ).status,
    ).toBe(204);
    // The control: an administrator's channel on the same server is told.
    expect(
      (
        await api.post("/api/self/notifications", {
          type: "webhook",
          events: ["server.crashed"],
          servers: [id],
          url: `${base}/control`,
        })
      ).status,
    ).toBe(200);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await hooks.nth("/control", 1);
    // Both channels hear the same crash, so the demoted one's would have gone with the control's:
    // a while after it in which it may not come.
    await pause(1500);
    expect(hooks.to("/demoted")).toEqual([]);
  });
});
