import { beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-api.ts";
import { type PanelClient as Client, PanelClient } from "../support/http-client.ts";
import { storedSetting } from "../support/panel-db.ts";
import { admin, adminClient, usePanel } from "../support/test-panel.ts";

describe("request validation and the error envelope", () => {
  const panel = usePanel();
  let api: Client;
  beforeAll(async () => {
    api = await adminClient(panel());
  });
  const json = { "content-type": "application/json" };

  it.each(["{bad", "", "[1,", '{"email":'])("refuses the body %j as 400 ErrInvalidJson", async (raw) => {
    const res = await api.call("POST", "/auth/login", { raw, headers: json });
    expectError(res, 400, "ErrInvalidJson");
  });

  it("refuses deeply nested JSON with 400 ErrInvalidJson, not a 500 (issue 13 #7)", async () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
    for (const [method, path] of [
      ["POST", "/auth/login"],
      ["PUT", "/api/userSettings/deep"],
      ["POST", "/api/settings"],
    ] as const) {
      const res = await api.call(method, path, { raw: deep(5000), headers: json });
      expectError(res, 400, "ErrInvalidJson");
      const arrays = await api.call(method, path, {
        raw: `${"[".repeat(5000)}${"]".repeat(5000)}`,
        headers: json,
      });
      expectError(arrays, 400, "ErrInvalidJson");
    }
    // Brackets inside strings are text, not depth; ordinary nesting passes the parser.
    const quoted = await api.call("PUT", "/api/userSettings/quoted", {
      raw: JSON.stringify({ value: `"{[${"{[".repeat(1500)}` }),
      headers: json,
    });
    expect(quoted.status, quoted.text).toBe(204);
    expectError(
      await api.call("PUT", "/api/userSettings/nested", { raw: deep(20), headers: json }),
      400,
      "ErrFieldRequired",
    );
  });

  it("refuses a body of an unknown media type with 415, and plain text as the wrong type", async () => {
    const xml = await api.call("POST", "/api/settings", {
      raw: "<x/>",
      headers: { "content-type": "application/xml" },
    });
    expectError(xml, 415, "ErrUnsupportedMediaType");
    const text = await api.call("POST", "/api/settings", {
      raw: "x",
      headers: { "content-type": "text/plain" },
    });
    expectError(text, 400, "ErrFieldType", { field: "body", type: "object" });
    // /auth/ takes JSON only (issue 13 #13).
    const signIn = await api.call("POST", "/auth/login", {
      raw: "x",
      headers: { "content-type": "text/plain" },
    });
    expectError(signIn, 415, "ErrUnsupportedMediaType");
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const raw = JSON.stringify({ value: "x".repeat(1024 * 1024) });
    const res = await api.call("PUT", "/api/userSettings/big", { raw, headers: json });
    expectError(res, 413, "ErrBodyTooLarge");
  });

  it.each([
    ["/auth/login", { email: 5, password: "x" }, "email", "string"],
    ["/auth/login", { email: "a@example.com", password: ["x"] }, "password", "string"],
    ["/auth/login", [], "body", "object"],
    [
      "/auth/register",
      { username: true, email: "a@example.com", password: "password-1" },
      "username",
      "string",
    ],
    ["/auth/otp", { token: 123456 }, "token", "string"],
  ])("POST %s %j → 400 ErrFieldType", async (path, body, field, type) => {
    expectError(await api.post(path, body), 400, "ErrFieldType", { field, type });
  });

  it.each([
    ["/auth/login", { email: "a@example.com" }, "password"],
    ["/auth/login", { password: "x" }, "email"],
    ["/auth/otp", {}, "token"],
  ])("POST %s %j → 400 ErrFieldRequired", async (path, body, field) => {
    expectError(await api.post(path, body), 400, "ErrFieldRequired", { field });
  });

  it("checks the types of PUT /api/self and /api/userSettings", async () => {
    expectError(
      await api.put("/api/self", { password: admin.password, username: 12345 }),
      400,
      "ErrFieldType",
      {
        field: "username",
      },
    );
    expectError(await api.put("/api/userSettings/theme", { value: 1 }), 400, "ErrFieldType", {
      field: "value",
    });
    expectError(await api.put("/api/userSettings/theme", {}), 400, "ErrFieldRequired", { field: "value" });
    const long = await api.put("/api/userSettings/theme", { value: "x".repeat(4001) });
    expectError(long, 400, "ErrFieldLength", { field: "value", max: 4000 });
    expect((await api.put("/api/userSettings/theme", { value: "x".repeat(4000) })).status).toBe(204);
  });

  it("refuses a user setting key with characters outside [A-Za-z0-9._-]", async () => {
    expectError(await api.put("/api/userSettings/a%20b", { value: "x" }), 400, "ErrFieldInvalid", {
      field: "key",
    });
  });

  it("refuses unknown setting keys with ErrUnknownSetting on every settings call", async () => {
    const meta = { setting: "panel.nope" };
    expectError(await api.get("/api/settings/panel.nope"), 400, "ErrUnknownSetting", meta);
    expectError(await api.put("/api/settings/panel.nope", { value: "x" }), 400, "ErrUnknownSetting", meta);
    expectError(await api.post("/api/settings", { "panel.nope": "x" }), 400, "ErrUnknownSetting", meta);
  });

  it.each([
    ["panel.settings.masterUrl", "ftp://x", "ErrSettingInvalid"],
    ["panel.settings.masterUrl", "not a url", "ErrSettingInvalid"],
    ["panel.registrationEnabled", "maybe", "ErrFieldType"],
    ["panel.settings.companyName", true, "ErrFieldType"],
    ["panel.settings.companyName", "  ", "ErrSettingInvalid"],
    ["panel.settings.themeSettings", "[1]", "ErrSettingInvalid"],
    ["panel.email.provider", "pigeon", "ErrSettingInvalid"],
  ])("refuses %s = %j with %s and saves nothing", async (key, value, code) => {
    const before = (await api.get(`/api/settings/${key}`)).body.value;
    expectError(await api.put(`/api/settings/${key}`, { value }), 400, code);
    expectError(await api.post("/api/settings", { [key]: value }), 400, code);
    expect((await api.get(`/api/settings/${key}`)).body.value).toEqual(before);
    expect(await storedSetting(panel(), key)).toBeUndefined();
  });

  it("POST /api/settings with one good and one bad key saves neither", async () => {
    const res = await api.post("/api/settings", {
      "panel.settings.companyName": "Half Saved",
      "panel.settings.masterUrl": "ftp://x",
    });
    expectError(res, 400, "ErrSettingInvalid", { setting: "panel.settings.masterUrl" });
    expect((await api.get("/api/settings/panel.settings.companyName")).body.value).toBe("Outpost");
    expect(await storedSetting(panel(), "panel.settings.companyName")).toBeUndefined();
  });

  it("refuses a settings body that is not an object of strings and booleans", async () => {
    expectError(await api.post("/api/settings", { "panel.settings.companyName": 5 }), 400, "ErrFieldType");
    expectError(await api.post("/api/settings", ["x"]), 400, "ErrFieldType");
  });
});

describe("NUL characters", () => {
  const panel = usePanel();

  it("are refused as 400 ErrFieldMustBePrintable on both databases, before any query", async () => {
    const api = await adminClient(panel());
    const login = await api.post("/auth/login", { email: "a\u0000@example.com", password: "x" });
    expectError(login, 400, "ErrFieldMustBePrintable", { field: "email" });
    const value = await api.put("/api/userSettings/theme", { value: "a\u0000b" });
    expectError(value, 400, "ErrFieldMustBePrintable", { field: "value" });
    const key = await api.post("/api/settings", { "panel.settings.companyName\u0000": "x" });
    expectError(key, 400, "ErrFieldMustBePrintable");
    const param = await api.get("/api/settings/panel.settings.companyName%00");
    expectError(param, 400, "ErrFieldMustBePrintable", { field: "key" });
    expect((await api.get("/api/userSettings")).body).toEqual([]);
  });

  it("are refused in a query's values and names, and in a path before the access check", async () => {
    const api = await adminClient(panel());
    const value = await api.get("/api/users?username=a%00b");
    expectError(value, 400, "ErrFieldMustBePrintable", { field: "username" });
    expectError(await api.get("/api/users?page=1&x%00=1"), 400, "ErrFieldMustBePrintable");
    // Without a session: the NUL is refused before the guard would answer 401.
    const stranger = new PanelClient(panel().url);
    const param = await stranger.get("/api/servers/ab%00cd");
    expectError(param, 400, "ErrFieldMustBePrintable", { field: "id" });
  });
});
