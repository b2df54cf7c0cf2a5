import { describe, expect, it } from "vitest";
import { newUser } from "../support/expect-api.ts";
import { adminClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("per-user settings", () => {
  const panel = usePanel();

  it("starts empty, upserts values and lists them by key", async () => {
    const client = await registeredClient(panel(), newUser("prefs"));
    expect((await client.get("/api/userSettings")).body).toEqual([]);
    expect((await client.put("/api/userSettings/theme", { value: "Outpost" })).status).toBe(204);
    expect((await client.put("/api/userSettings/themeSettings", { value: '{"mode":"dark"}' })).status).toBe(
      204,
    );
    expect((await client.put("/api/userSettings/theme", { value: "Midnight" })).status).toBe(204);
    const list = await client.get("/api/userSettings");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { key: "theme", value: "Midnight" },
      { key: "themeSettings", value: '{"mode":"dark"}' },
    ]);
  });

  it("keeps each user's settings to themselves", async () => {
    const alice = await registeredClient(panel(), newUser("alice"));
    const bob = await registeredClient(panel(), newUser("bob"));
    await alice.put("/api/userSettings/theme", { value: "alice-theme" });
    await bob.put("/api/userSettings/theme", { value: "bob-theme" });
    expect((await alice.get("/api/userSettings")).body).toEqual([{ key: "theme", value: "alice-theme" }]);
    expect((await bob.get("/api/userSettings")).body).toEqual([{ key: "theme", value: "bob-theme" }]);
    const admin = await adminClient(panel());
    expect((await admin.get("/api/userSettings")).body).toEqual([]);
  });

  it("accepts an empty value", async () => {
    const client = await registeredClient(panel(), newUser("empty"));
    expect((await client.put("/api/userSettings/locale", { value: "" })).status).toBe(204);
    expect((await client.get("/api/userSettings/")).body).toEqual([{ key: "locale", value: "" }]);
  });
});
