import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_CONFIG, normalizeConfig } from "../../../src/api/config";
import { validEmail, validPassword, validUsername } from "../../../src/app/validation";
import { resolveConfirm } from "../../../src/components/confirmStore";
import { fillDigits, isComplete } from "../../../src/components/otpCode";
import { FADE_MS, showToast, TOAST_MS, toasts } from "../../../src/components/toastStore";
import { pickLocale, toBcp47 } from "../../../src/i18n/locales";
import { contrastText } from "../../../src/state/theme";

describe("locale at startup (spec §9)", () => {
  const supported = ["en_US", "de_DE", "pt_BR", "pt_PT", "sr_SP", "es_419"];
  it("prefers a supported saved locale", () => {
    expect(pickLocale("de_DE", ["pt-BR"], supported)).toBe("de_DE");
    expect(pickLocale("xx_XX", ["pt-BR"], supported)).toBe("pt_BR");
  });
  it("matches the full browser tag first, then the language part", () => {
    expect(pickLocale(null, ["pt-PT", "en"], supported)).toBe("pt_PT");
    expect(pickLocale(null, ["de-AT"], supported)).toBe("de_DE");
    expect(pickLocale(null, ["es-419"], supported)).toBe("es_419");
    expect(pickLocale(null, ["sr-RS"], supported)).toBe("sr_SP");
  });
  it("falls back to en_US", () => {
    expect(pickLocale(null, ["ja-JP"], supported)).toBe("en_US");
    expect(pickLocale(null, [], supported)).toBe("en_US");
  });
  it("gives <html lang> a BCP 47 tag", () => {
    expect(toBcp47("en_US")).toBe("en-US");
    expect(toBcp47("sr_SP")).toBe("sr-RS");
  });
});

describe("toasts (spec §4)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  it("stay 5 s, fade 0.2 s, then go", () => {
    const id = showToast("error", "boom");
    expect(toasts.value.find((t) => t.id === id)).toMatchObject({ kind: "error", leaving: false });
    vi.advanceTimersByTime(TOAST_MS);
    expect(toasts.value.find((t) => t.id === id)?.leaving).toBe(true);
    vi.advanceTimersByTime(FADE_MS);
    expect(toasts.value.find((t) => t.id === id)).toBeUndefined();
  });
});

describe("confirm dialog options (spec §2.3)", () => {
  const action = () => {};
  it("is ignored without a title or a confirm action", () => {
    expect(resolveConfirm({ confirm: { action } })).toBeNull();
    expect(resolveConfirm({ title: "Delete?" })).toBeNull();
    expect(resolveConfirm(undefined)).toBeNull();
  });
  it("fills defaults: confirm apply/primary, cancel close/error", () => {
    const r = resolveConfirm({ title: "Delete?", confirm: { action } })!;
    expect(r.confirm).toMatchObject({ icon: "apply", color: "primary", text: undefined });
    expect(r.cancel).toMatchObject({ icon: "close", color: "error", text: undefined });
    const custom = resolveConfirm({ title: "T", confirm: { action, text: "Delete", color: "error" } })!;
    expect(custom.confirm).toMatchObject({ text: "Delete", color: "error", icon: "apply" });
  });
});

describe("one-time code boxes", () => {
  it("fills from a position and reports completeness", () => {
    const empty = ["", "", "", "", "", ""];
    const pasted = fillDigits(empty, 0, " 123-456 ");
    expect(pasted.digits).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(isComplete(pasted.digits)).toBe(true);
    const partial = fillDigits(empty, 4, "789");
    expect(partial.digits).toEqual(["", "", "", "", "7", "8"]);
    expect(isComplete(partial.digits)).toBe(false);
  });
});

describe("field rules (spec §5)", () => {
  it("checks username, email and password", () => {
    expect(validUsername("abcd")).toBe(false);
    expect(validUsername("abcde")).toBe(true);
    // The panel's own characters (server/panel/account-rules.ts), and at most 100.
    expect(validUsername("a.b_c~d-e")).toBe(true);
    expect(validUsername("jürgen")).toBe(false);
    expect(validUsername("two words")).toBe(false);
    expect(validUsername("x".repeat(100))).toBe(true);
    expect(validUsername("x".repeat(101))).toBe(false);
    expect(validEmail("a@b.cd")).toBe(true);
    expect(validEmail("a@b.c")).toBe(false);
    expect(validEmail("ab.cd")).toBe(false);
    expect(validEmail("@b.cd")).toBe(false);
    expect(validPassword("")).toBe(false);
    expect(validPassword("x")).toBe(true);
  });
});

describe("config and theme defaults", () => {
  it("uses the defaults for a failed or partial /api/config", () => {
    expect(normalizeConfig(undefined)).toEqual(DEFAULT_CONFIG);
    const c = normalizeConfig({ branding: { name: "Acme" }, registrationEnabled: false });
    expect(c.branding.name).toBe("Acme");
    expect(c.registrationEnabled).toBe(false);
    expect(c.themes.active).toBe(DEFAULT_CONFIG.themes.active);
  });
  it("picks #333 or #eee for contrast", () => {
    expect(contrastText("#07a7e3")).toBe("#333");
    expect(contrastText("#1a237e")).toBe("#eee");
    expect(contrastText("not a colour")).toBe("#333");
  });
});

describe("avatar", () => {
  it("hashes the trimmed, lower-cased e-mail with md5", async () => {
    const { avatarUrl, emailHash } = await import("../../../src/app/avatarUrl");
    // md5("admin@example.com")
    expect(emailHash("  Admin@Example.COM ")).toBe("e64c7d89f26bd1972efa854d13d7dd61");
    expect(avatarUrl("admin@example.com")).toContain("e64c7d89f26bd1972efa854d13d7dd61");
    expect(avatarUrl("admin@example.com")).toMatch(/^data:image\/svg\+xml,/);
  });
});

describe("toast bursts", () => {
  it("shows the same message only once while it is visible", () => {
    vi.useFakeTimers();
    const before = toasts.value.length;
    const a = showToast("error", "same");
    const b = showToast("error", "same");
    expect(a).toBe(b);
    expect(toasts.value.length).toBe(before + 1);
    vi.advanceTimersByTime(TOAST_MS + FADE_MS);
    vi.useRealTimers();
  });
});
