import fs from "node:fs";
import path from "node:path";
import { createTar } from "nanotar";
import { describe, expect, it } from "vitest";
import { linkAssets, readThemeArchive, ThemeArchiveError } from "../../../src/theme/archive";

const manifest = {
  keepDefaultCss: false,
  sidebarClosedBelow: 900,
  settings: { mode: { type: "class", default: "dark" } },
};
const good = createTar([
  { name: "./manifest.json", data: JSON.stringify(manifest) },
  { name: "theme.css", data: ":root { --bg: #000; background: url('bg.png') }" },
  { name: "bg.png", data: new Uint8Array([137, 80, 78, 71]) },
]);

describe("theme archives (reference §10.5)", () => {
  it("reads the manifest, the stylesheet and the other files", () => {
    const theme = readThemeArchive(good);
    expect(theme.manifest).toEqual({
      keepDefaultCss: false,
      sidebarClosedBelow: 900,
      settings: { mode: { type: "class", default: "dark", options: undefined } },
    });
    expect(theme.css).toContain("--bg: #000");
    expect([...theme.assets.keys()]).toEqual(["bg.png"]);
  });

  it("keeps the default CSS unless the manifest says otherwise, and ignores unknown settings", () => {
    const tar = createTar([
      {
        name: "manifest.json",
        data: JSON.stringify({ settings: { x: { type: "font" }, c: { type: "color" } } }),
      },
    ]);
    const theme = readThemeArchive(tar);
    expect(theme.manifest.keepDefaultCss).toBe(true);
    expect(Object.keys(theme.manifest.settings)).toEqual(["c"]);
    expect(theme.css).toBe("");
  });

  it("reads PufferPanel's form: options as {value}, the default the one marked default, else the first", () => {
    const tar = createTar([
      {
        name: "manifest.json",
        data: JSON.stringify({
          settings: {
            mode: {
              type: "class",
              options: [{ value: "mode-light" }, { value: "mode-dark", default: true }],
            },
            list: { type: "class", options: [{ value: "list-type-grid" }, { value: "list-type-list" }] },
            color: { type: "color", var: "--primary", default: "#07a7e3" },
          },
        }),
      },
    ]);
    expect(readThemeArchive(tar).manifest.settings).toEqual({
      mode: { type: "class", default: "mode-dark", options: ["mode-light", "mode-dark"] },
      list: { type: "class", default: "list-type-grid", options: ["list-type-grid", "list-type-list"] },
      color: { type: "color", default: "#07a7e3", options: undefined },
    });
  });

  it("ships manifests PufferPanel's client reads too: class options with one default, colours with a variable", () => {
    const dir = path.resolve(import.meta.dirname, "../../../src/theme/archives");
    const names = fs.readdirSync(dir);
    expect(names).toEqual(expect.arrayContaining(["Outpost", "HighContrast"]));
    for (const name of names) {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, name, "manifest.json"), "utf8"));
      for (const [key, spec] of Object.entries<any>(manifest.settings)) {
        const where = `${name}: ${key}`;
        if (spec.type === "class") {
          expect(spec.options.length, where).toBeGreaterThan(0);
          for (const option of spec.options) {
            expect(option, where).toEqual(expect.objectContaining({ value: expect.any(String) }));
            expect(option.tkey, where).toMatch(/^common\.theme\./);
          }
          expect(
            spec.options.filter((o: { default?: boolean }) => o.default === true),
            where,
          ).toHaveLength(1);
        } else {
          expect(spec, where).toMatchObject({ type: "color", var: "--primary", default: expect.any(String) });
          expect(
            spec.derive.map((d: { var: string }) => d.var),
            where,
          ).toEqual(expect.arrayContaining(["--text-primary", "--primary-hover"]));
        }
      }
      expect(
        manifest.settings.mode.options.map((o: { value: string }) => o.value),
        name,
      ).toContain(manifest.settings.mode.options.find((o: { default?: boolean }) => o.default).value);
      // Our client reads the same file to the same defaults.
      const ours = readThemeArchive(createTar([{ name: "manifest.json", data: JSON.stringify(manifest) }]));
      expect(ours.manifest.settings.mode.default, name).toMatch(/^mode-/);
    }
  });

  it("refuses an archive without a manifest", () => {
    const tar = createTar([{ name: "theme.css", data: "body{}" }]);
    expect(() => readThemeArchive(tar)).toThrow(ThemeArchiveError);
    expect(() => readThemeArchive(tar)).toThrow("no theme manifest found");
  });

  it("refuses a truncated archive, cut anywhere", () => {
    // 1024 and 2048 are between two files; the others inside a header or a file.
    for (const cut of [10, 511, 600, 1024, 1100, 2048, 2600]) {
      expect(() => readThemeArchive(good.subarray(0, cut)), `cut at ${cut}`).toThrow(ThemeArchiveError);
    }
  });

  it("refuses a manifest that is not a JSON object, and bytes that are not a tar", () => {
    for (const data of ["{ nope", "[1,2]", "null"]) {
      expect(() => readThemeArchive(createTar([{ name: "manifest.json", data }]))).toThrow(ThemeArchiveError);
    }
    expect(() => readThemeArchive(new TextEncoder().encode("just some text, not an archive"))).toThrow(
      ThemeArchiveError,
    );
    expect(() => readThemeArchive(new Uint8Array())).toThrow(ThemeArchiveError);
  });

  it("points the stylesheet's url('name') at the archive's files only", () => {
    const css =
      "a{background:url('bg.png')} b{background:url(\"./bg.png\")} c{background:url(https://x/y.png)}";
    const out = linkAssets(css, new Set(["bg.png"]), (n) => `blob:${n}`);
    expect(out).toBe(
      'a{background:url("blob:bg.png")} b{background:url("blob:bg.png")} c{background:url(https://x/y.png)}',
    );
  });
});
