import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

describe("GET /api/config", () => {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-config-web-"));
  fs.writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Outpost</title>");
  fs.mkdirSync(path.join(webDir, "theme"));
  for (const file of ["Midnight.tar", "Amber.tar", "notes.txt"])
    fs.writeFileSync(path.join(webDir, "theme", file), "");
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));
  const panel = usePanel({ webDir });
  const config = () => new PanelClient(panel().url).get("/api/config");

  it("answers without a session, in the reference shape, with the defaults", async () => {
    const res = await config();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      themes: { active: "Outpost", settings: "{}", available: ["Amber", "Midnight", "Outpost"] },
      branding: { name: "Outpost" },
      registrationEnabled: false,
      vapidPublicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
      // The login page's single sign-on buttons: none until an administrator adds a provider.
      oidcProviders: [],
    });
    // A P-256 public point (uncompressed, 65 bytes): what PushManager.subscribe takes.
    const key = Buffer.from(res.body.vapidPublicKey, "base64url");
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
  });

  it("follows the settings: company name, theme and registration", async () => {
    const api = await adminClient(panel());
    const saved = await api.post("/api/settings", {
      "panel.settings.companyName": "Acme Games",
      "panel.settings.defaultTheme": "Midnight",
      "panel.settings.themeSettings": '{"mode":"dark"}',
      "panel.registrationEnabled": true,
    });
    expect(saved.status).toBe(204);
    expect((await config()).body).toEqual({
      themes: {
        active: "Midnight",
        settings: '{"mode":"dark"}',
        available: ["Amber", "Midnight", "Outpost"],
      },
      branding: { name: "Acme Games" },
      registrationEnabled: true,
      vapidPublicKey: (await config()).body.vapidPublicKey,
      oidcProviders: [],
    });
  });
});
