import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTar } from "nanotar";
import { afterAll, describe, expect, it } from "vitest";
import { PanelClient, usePanel } from "../support/test-panel.ts";

// Theme archives (reference §10.5): shipped ones in the web app's theme folder, an administrator's
// dropped into <data>/themes; both listed by /api/config and served at /theme/{name}.tar.

const archive = (css: string) =>
  createTar(
    [
      { name: "manifest.json", data: JSON.stringify({ keepDefaultCss: true, settings: {} }) },
      { name: "theme.css", data: css },
    ],
    { attrs: { mtime: 0 } },
  );

describe("theme archives", () => {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-theme-web-"));
  fs.writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Outpost</title>");
  fs.mkdirSync(path.join(webDir, "theme"));
  fs.writeFileSync(path.join(webDir, "theme", "Shipped.tar"), archive(":root{--x:1}"));
  fs.writeFileSync(path.join(webDir, "theme", "Both.tar"), archive(":root{--from:shipped}"));
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));
  const panel = usePanel({ webDir });
  const anonymous = () => new PanelClient(panel().url);
  const download = (name: string) => fetch(`${panel().url}/theme/${name}`);

  it("serves a shipped archive to anyone, as a tar", async () => {
    const res = await download("Shipped.tar");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(archive(":root{--x:1}")))).toBe(true);
  });

  it("lists and serves an archive an administrator drops into the data folder, without a restart", async () => {
    const dropped = path.join(panel().dataDir, "themes");
    const available = async () =>
      (await anonymous().get<{ themes: { available: string[] } }>("/api/config")).body.themes.available;
    // Asked before the folder exists, and again with it empty: the list is kept between calls.
    expect(await available()).toEqual(["Both", "Outpost", "Shipped"]);
    fs.mkdirSync(dropped, { recursive: true });
    expect(await available()).toEqual(["Both", "Outpost", "Shipped"]);
    fs.writeFileSync(path.join(dropped, "Company Colours.tar"), archive(":root{--y:2}"));
    fs.writeFileSync(path.join(dropped, "Both.tar"), archive(":root{--from:dropped}"));
    fs.writeFileSync(path.join(dropped, "readme.txt"), "not a theme");
    const config = await anonymous().get<{ themes: { available: string[] } }>("/api/config");
    expect(config.body.themes.available).toEqual(["Both", "Company Colours", "Outpost", "Shipped"]);
    const res = await download("Company%20Colours.tar");
    expect(res.status).toBe(200);
    // The administrator's archive replaces a shipped one of the same name.
    const both = Buffer.from(await (await download("Both.tar")).arrayBuffer());
    expect(both.equals(Buffer.from(archive(":root{--from:dropped}")))).toBe(true);
    // Dropped and removed ones show on the very next call, however soon.
    for (let i = 0; i < 3; i++) {
      fs.writeFileSync(path.join(dropped, `Extra ${i}.tar`), archive(":root{--z:3}"));
      expect(await available()).toContain(`Extra ${i}`);
      fs.rmSync(path.join(dropped, `Extra ${i}.tar`));
      expect(await available()).not.toContain(`Extra ${i}`);
    }
  });

  it("answers 404 in the error envelope for unknown names, other files and paths", async () => {
    for (const name of [
      "Nope.tar",
      "Shipped",
      "readme.txt",
      "..%2Findex.html",
      "..%2F..%2Fetc%2Fpasswd.tar",
      ".hidden.tar",
    ]) {
      const res = await anonymous().get<{ error: { code: string } }>(`/theme/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.error.code, name).toBe("ErrNotFound");
    }
  });
});
