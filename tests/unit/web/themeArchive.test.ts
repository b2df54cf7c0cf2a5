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
