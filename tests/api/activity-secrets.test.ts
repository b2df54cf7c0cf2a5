import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEchoServer } from "../support/echo-server.ts";
import { setGlobalScopes, setServerScopes } from "../support/panel-db.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Issue 35, P5: values of a server's variables reached the activity log with the body (redaction was
 * by field name, so `GSLT` or `LICENSE` passed), and a refused attempt kept what was tried; task
 * steps went there whole. Anyone with `server.activity.view` read them.
 */
describe("activity details hold no variable values and no task steps", () => {
  const panel = usePanel();
  const id = "ac75ec01";
  const watcher = { username: "act-watcher", email: "act-watcher@example.com", password: "watcher-pass-1" };
  let admin: PanelClient;
  let user: PanelClient;

  beforeAll(async () => {
    admin = await adminClient(panel());
    user = await registeredClient(panel(), watcher);
    await createEchoServer(admin, id);
    await setServerScopes(panel(), watcher.email, id, [
      "server.view",
      "server.activity.view",
      "server.data.edit",
    ]);
  });
  afterAll(async () => {
    await admin?.delete(`/api/servers/${id}`);
  });

  it("records which variables changed, never their values, also for a refused attempt", async () => {
    // `secret` is not user-editable: the administrator sets it, the user's attempt is refused.
    const set = await admin.put(`/api/servers/${id}/data`, {
      data: { secret: { value: "GSLT-0123456789ABCDEF" }, motd: { value: "public words" } },
    });
    expect(set.status, set.text).toBe(204);
    const tried = await user.post(`/api/servers/${id}/data`, { secret: "TRIED-SECRET-42" });
    expect(tried.status).toBeGreaterThanOrEqual(400);
    const made = await admin.post(`/api/servers/${id}/tasks`, {
      name: "Nightly note",
      cronSchedule: "0 4 * * *",
      operations: [{ type: "writefile", target: "note.txt", text: "STEP-TEXT-7f3a" }],
    });
    expect(made.status, made.text).toBeLessThan(300);

    const log = await user.get(`/api/servers/${id}/activity`);
    expect(log.status, log.text).toBe(200);
    for (const value of ["GSLT-0123456789ABCDEF", "public words", "TRIED-SECRET-42", "STEP-TEXT-7f3a"]) {
      expect(log.text).not.toContain(value);
    }
    const entries = log.body.activity as { action: string; ok: boolean; details: unknown }[];
    const data = entries.filter((entry) => entry.action === "server.data");
    expect(data.map((entry) => [entry.ok, entry.details])).toEqual(
      expect.arrayContaining([
        [true, expect.objectContaining({ variables: ["motd", "secret"] })],
        [false, expect.objectContaining({ variables: ["secret"] })],
      ]),
    );
    expect(entries.find((entry) => entry.action === "task.create")?.details).toEqual({
      name: "Nightly note",
    });
  });

  it("keeps only the names of what a refused attempt sent, and no secret setting's value", async () => {
    // Refused after the body was read (the administrator outranks them): kept by name alone.
    await setGlobalScopes(panel(), watcher.email, ["login", "users.info.view", "users.info.edit"]);
    const adminId = (await admin.get("/api/self")).body.id;
    const tried = await user.post(`/api/users/${adminId}`, { email: "tried-takeover@example.com" });
    expect(tried.status, tried.text).toBe(403);
    // A setting the settings module defines secret, set by an administrator.
    const set = await admin.post("/api/settings", { "panel.mods.curseforgeKey": "CF-KEY-0123456789" });
    expect(set.status, set.text).toBe(204);

    const log = await admin.get("/api/activity?limit=100");
    expect(log.status, log.text).toBe(200);
    expect(log.text).not.toContain("tried-takeover@example.com");
    expect(log.text).not.toContain("CF-KEY-0123456789");
    const entries = log.body.activity as { action: string; ok: boolean; details: Record<string, unknown> }[];
    expect(entries.find((entry) => entry.action === "user.edit" && !entry.ok)?.details).toEqual({
      fields: ["email"],
      error: "ErrUserOutranks",
    });
    expect(entries.find((entry) => entry.action === "settings.edit")?.details).toEqual({
      "panel.mods.curseforgeKey": "[redacted]",
    });
  });

  it("redacts a field its schema marks secret, though its name says nothing: a webhook's address", async () => {
    // A Discord-like hook: the address is the key. An administrator may name a loopback one.
    const hook = "http://127.0.0.1:9/api/webhooks/1234/HOOK-TOKEN-5e1f0c";
    const made = await admin.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.crashed"],
      url: hook,
    });
    expect(made.status, made.text).toBe(200);

    const log = await admin.get("/api/activity?limit=100");
    expect(log.status, log.text).toBe(200);
    expect(log.text).not.toContain("HOOK-TOKEN-5e1f0c");
    const entries = log.body.activity as { action: string; ok: boolean; details: Record<string, unknown> }[];
    expect(entries.find((entry) => entry.action === "self.notification.create")?.details).toEqual({
      type: "webhook",
      events: ["server.crashed"],
      url: "[redacted]",
    });
  });
});
