import { beforeAll, describe, expect, it } from "vitest";
import { settingKeys } from "../../server/panel/settings.ts";
import type { PanelClient as Client } from "../support/http-client.ts";
import { storedSetting } from "../support/panel-db.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

describe("panel settings", () => {
  const panel = usePanel();
  let api: Client;
  beforeAll(async () => {
    api = await adminClient(panel());
  });
  const value = async (key: string) => {
    const res = await api.get(`/api/settings/${key}`);
    expect(res.status, res.text).toBe(200);
    return res.body.value;
  };

  it("answers Outpost's defaults for every editable key", async () => {
    const defaults: Record<string, unknown> = {
      "panel.settings.companyName": "Outpost",
      "panel.settings.defaultTheme": "Outpost",
      "panel.settings.themeSettings": "{}",
      "panel.settings.masterUrl": panel().url,
      "panel.registrationEnabled": false,
      "panel.security.require2fa": false,
      "panel.activity.retentionDays": "90",
      "panel.mods.modrinthUrl": "https://api.modrinth.com",
      "panel.mods.hangarUrl": "https://hangar.papermc.io",
      "panel.mods.curseforgeUrl": "https://api.curseforge.com",
      "panel.mods.modrinthEnabled": true,
      "panel.mods.hangarEnabled": true,
      "panel.mods.curseforgeEnabled": true,
      "panel.sftp.passwordWith2fa": false,
    };
    expect(settingKeys).toEqual(expect.arrayContaining(Object.keys(defaults)));
    for (const key of settingKeys) {
      expect(await value(key), key).toEqual(key in defaults ? defaults[key] : "");
    }
  });

  it("PUT saves one value, in the database, and GET answers it", async () => {
    const put = await api.put("/api/settings/panel.settings.companyName", { value: "Acme Games" });
    expect(put.status).toBe(204);
    expect(put.text).toBe("");
    expect(await value("panel.settings.companyName")).toBe("Acme Games");
    expect(await storedSetting(panel(), "panel.settings.companyName")).toBe("Acme Games");
  });

  it("stores booleans as booleans, also when sent as the strings true/false", async () => {
    await api.put("/api/settings/panel.registrationEnabled", { value: "true" });
    expect(await value("panel.registrationEnabled")).toBe(true);
    await api.put("/api/settings/panel.registrationEnabled", { value: false });
    expect(await value("panel.registrationEnabled")).toBe(false);
  });

  it("POST saves several values at once", async () => {
    // The master URL's default is a guess from the listen address: it says whether one was saved.
    const guessed = await api.get("/api/settings/panel.settings.masterUrl");
    expect(guessed.body).toEqual({ value: panel().url, isSet: false });
    const res = await api.post("/api/settings", {
      "panel.settings.masterUrl": "https://panel.example.com",
      "panel.email.provider": "smtp",
      "panel.email.host": "mail.example.com:587",
      "panel.settings.themeSettings": '{"mode":"dark"}',
    });
    expect(res.status).toBe(204);
    expect((await api.get("/api/settings/panel.settings.masterUrl")).body).toEqual({
      value: "https://panel.example.com",
      isSet: true,
    });
    expect(await value("panel.email.provider")).toBe("smtp");
    expect(await value("panel.email.host")).toBe("mail.example.com:587");
    expect(await value("panel.settings.themeSettings")).toBe('{"mode":"dark"}');
  });

  it("an empty POST changes nothing", async () => {
    expect((await api.post("/api/settings", {})).status).toBe(204);
    expect(await value("panel.settings.companyName")).toBe("Acme Games");
  });
});
