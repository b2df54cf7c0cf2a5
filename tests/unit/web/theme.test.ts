import { describe, expect, it } from "vitest";
import { localeLabel, ownName } from "../../../src/i18n/localeNames";
import { ALL_LOCALES, pickLocale } from "../../../src/i18n/locales";
import {
  contrastRatio,
  contrastText,
  DEFAULT_THEME_SETTINGS,
  parseThemeSettings,
  rootLook,
  storedForm,
} from "../../../src/state/theme";

describe("theme settings (spec §3, §4, §9)", () => {
  it("reads stored settings and puts defaults in place of anything unknown", () => {
    expect(parseThemeSettings(null)).toEqual(DEFAULT_THEME_SETTINGS);
    expect(parseThemeSettings("not json")).toEqual(DEFAULT_THEME_SETTINGS);
    expect(
      parseThemeSettings(
        JSON.stringify({ mode: "dark-hc", color: "#123456", fontFace: "accessible", fontSize: 4 }),
      ),
    ).toEqual({
      ...DEFAULT_THEME_SETTINGS,
      mode: "dark-hc",
      color: "#123456",
      fontFace: "accessible",
      fontSize: 4,
    });
    const bad = parseThemeSettings(
      JSON.stringify({ mode: "neon", color: "red; x", fontSize: 3, serverTypeDisplay: "big" }),
    );
    expect(bad).toEqual(DEFAULT_THEME_SETTINGS);
  });

  it("reads and writes mode and server type display as the classes PufferPanel's client stores (reference §10.5)", () => {
    const theirs = JSON.stringify({
      mode: "mode-dark",
      serverTypeDisplay: "server-type-none",
      color: "#123456",
    });
    expect(parseThemeSettings(theirs)).toEqual({
      ...DEFAULT_THEME_SETTINGS,
      mode: "dark",
      serverTypeDisplay: "none",
      color: "#123456",
    });
    expect(parseThemeSettings(JSON.stringify({ mode: "mode-dark-hc" })).mode).toBe("dark-hc");
    expect(parseThemeSettings(JSON.stringify({ mode: "mode-neon" })).mode).toBe("auto");
    expect(storedForm({ mode: "light", serverTypeDisplay: "icon", fontSize: 2 })).toEqual({
      mode: "mode-light",
      serverTypeDisplay: "server-type-icon",
      fontSize: 2,
    });
  });

  it("turns settings into classes and variables of <html>", () => {
    const look = rootLook({
      ...DEFAULT_THEME_SETTINGS,
      mode: "dark",
      fontSize: -2,
      serverTypeDisplay: "none",
    });
    expect(look.classes).toEqual(["mode-dark", "font-default", "types-none"]);
    expect(look.style["font-size"]).toBe("calc(100% + -2px)");
    expect(look.style["--on-primary"]).toBe("#333");
    expect(rootLook(DEFAULT_THEME_SETTINGS).style["font-size"]).toBe("100%");
  });

  it("chooses the text colour on the primary colour for contrast", () => {
    for (const color of ["#07a7e3", "#ffeb3b", "#1a237e", "#b71c1c", "#000", "#fff", "#808080"]) {
      const text = contrastText(color);
      const other = text === "#eee" ? "#333" : "#eee";
      expect(contrastRatio(color, text)).toBeGreaterThanOrEqual(contrastRatio(color, other));
    }
    expect(contrastRatio("#000", "#fff")).toBeCloseTo(21, 5);
  });
});

describe("locale matching (spec §9)", () => {
  const all = [...ALL_LOCALES];
  it("keeps a saved supported locale over the browser's", () => {
    expect(pickLocale("ar_SA", ["de-DE"], all)).toBe("ar_SA");
  });
  it("ignores a saved locale that is not supported", () => {
    expect(pickLocale("xx_YY", ["ja-JP"], all)).toBe("ja_JP");
    expect(pickLocale("de_DE", ["ja-JP"], ["en_US", "ja_JP"])).toBe("ja_JP");
  });
  it("matches the full tag before the language part", () => {
    expect(pickLocale(null, ["pt-PT"], all)).toBe("pt_PT");
    expect(pickLocale(null, ["pt-BR"], all)).toBe("pt_BR");
    expect(pickLocale(null, ["es-419"], all)).toBe("es_419");
    expect(pickLocale(null, ["zh-HK"], all)).toBe("zh_HK");
    expect(pickLocale(null, ["fr-CA", "de-DE"], all)).toBe("de_DE");
  });
  it("falls back to the language part, also for Norwegian Bokmål and Chinese scripts", () => {
    expect(pickLocale(null, ["fr-CA"], all)).toBe("fr_FR");
    expect(pickLocale(null, ["he"], all)).toBe("he_IL");
    expect(pickLocale(null, ["nb"], all)).toBe("no_NO");
    expect(pickLocale(null, ["zh-Hant"], all)).toBe("zh_TW");
    expect(pickLocale(null, ["zh-Hans-CN"], all)).toBe("zh_CN");
  });
  it("falls back to en_US", () => {
    expect(pickLocale(null, ["xx-XX", "yy"], all)).toBe("en_US");
    expect(pickLocale(null, [], all)).toBe("en_US");
  });
  it("names locales in their own language, region included, without flag emoji", () => {
    expect(ownName("de_DE")).toMatch(/^Deutsch/);
    expect(ownName("ja_JP")).toMatch(/^日本語/);
    expect(ownName("ar_SA")).toMatch(/^العربية/);
    expect(ownName("de_DE")).toMatch(/Deutschland/);
    for (const locale of ALL_LOCALES) {
      // Regional indicator letters (flags) and the globe emoji read nowhere reliably.
      expect(localeLabel(locale), locale).not.toMatch(/[\u{1F1E6}-\u{1F1FF}\u{1F30D}-\u{1F30F}]/u);
    }
  });
});
