import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PanelClient } from "../support/http-client.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

const publicDir = path.resolve(import.meta.dirname, "../../public");

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const head = fs.readFileSync(file).subarray(0, 24);
  expect(head.subarray(1, 4).toString()).toBe("PNG");
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

describe("GET /manifest.webmanifest (the installable app)", () => {
  const panel = usePanel();
  let admin: PanelClient;

  beforeAll(async () => {
    admin = await adminClient(panel());
  });

  it("names the app after the company name setting, for anyone, and lists PNG icons of the sizes it says", async () => {
    const anonymous = new PanelClient(panel().url);
    const first = await anonymous.get("/manifest.webmanifest");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(first.text);
    expect(manifest).toMatchObject({ start_url: "/servers", display: "standalone", theme_color: "#07a7e3" });

    expect(
      (await admin.put("/api/settings/panel.settings.companyName", { value: "Lakeside Games" })).status,
    ).toBe(204);
    const renamed = JSON.parse((await anonymous.get("/manifest.webmanifest")).text);
    expect(renamed.name).toBe("Lakeside Games");
    expect(renamed.short_name).toBe("Lakeside Gam");

    const pngs = renamed.icons.filter((icon: { type: string }) => icon.type === "image/png");
    expect(
      pngs.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`).sort(),
    ).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const icon of pngs) {
      const [width, height] = icon.sizes.split("x").map(Number);
      expect(pngSize(path.join(publicDir, icon.src))).toEqual({ width, height });
    }
  });
});
