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

describe("per-user settings are bounded (issue 13: any signed-in user could fill the database)", () => {
  const panel = usePanel();

  it("keeps at most 100 keys a user: the 101st is refused with 400, while existing keys still change", async () => {
    const client = await registeredClient(panel(), newUser("hoarder"));
    for (let i = 0; i < 100; i++) {
      expect((await client.put(`/api/userSettings/k${i}`, { value: "v".repeat(4000) })).status).toBe(204);
    }
    const refused = await client.put("/api/userSettings/one-more", { value: "v" });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "ErrTooManySettings", metadata: { limit: 100 } });
    expect((await client.put("/api/userSettings/k7", { value: "changed" })).status).toBe(204);
    const list = (await client.get("/api/userSettings")).body as { key: string; value: string }[];
    expect(list).toHaveLength(100);
    expect(list.find((s) => s.key === "k7")?.value).toBe("changed");
    // Another user has their own allowance.
    const other = await registeredClient(panel(), newUser("other-prefs"));
    expect((await other.put("/api/userSettings/theme", { value: "Outpost" })).status).toBe(204);
  });
});
