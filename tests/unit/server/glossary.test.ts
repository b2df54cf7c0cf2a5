import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import PO from "pofile";
import { afterAll, describe, expect, it } from "vitest";
import { type GlossaryMessage, glossaryProblems } from "../../../scripts/i18n/glossary.ts";

const LOCALES_DIR = path.resolve(import.meta.dirname, "../../../locales");
const catalog = (locale: string, name: string) =>
  PO.parse(readFileSync(path.join(LOCALES_DIR, locale, `${name}.po`), "utf8")).items;
const keyOf = (i: { msgctxt?: string; msgid: string }) => `${i.msgctxt ?? ""}\u0004${i.msgid}`;
// The catalogs' messages as npm run i18n:check hands them over (ids as todo.mjs prints them).
const messagesOf = (locale: string): GlossaryMessage[] =>
  ["shell", "screens"].flatMap((name) => {
    const target = new Map(catalog(locale, name).map((i) => [keyOf(i), i.msgstr[0] ?? ""]));
    return catalog("en_US", name)
      .map((i) => ({
        id: createHash("sha1").update(keyOf(i)).digest("hex").slice(0, 7),
        english: i.msgstr[0] || i.msgid,
        text: target.get(keyOf(i)) ?? "",
      }))
      .filter((m) => m.text);
  });

describe("glossary of key terms (issue 41)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "outpost-glossary-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (locale: string, glossary: unknown) => {
    mkdirSync(path.join(dir, locale), { recursive: true });
    writeFileSync(path.join(dir, locale, "glossary.json"), JSON.stringify(glossary));
  };

  it("finds a missing or unreadable glossary and a term that is no key term", () => {
    expect(glossaryProblems(dir, "xx_XX", [])).toEqual(["glossary.json missing"]);
    mkdirSync(path.join(dir, "yy_YY"));
    writeFileSync(path.join(dir, "yy_YY", "glossary.json"), "{");
    expect(glossaryProblems(dir, "yy_YY", [])[0]).toMatch(/not a glossary/);
    write("zz_ZZ", { terms: { Widget: { term: "x" } } });
    expect(glossaryProblems(dir, "zz_ZZ", [])[0]).toMatch(/"Widget" is not a key term/);
  });

  it("holds each message to the term, its wrong variants and the form of address", () => {
    write("de_DE", {
      address: "formal",
      avoidAddress: ["\\b(du|dein|deine|deiner)\\b"],
      terms: {
        Backup: { term: "Backup", use: "backup", avoid: ["sicherung"] },
        Kill: { term: "Sofort beenden", use: "sofort beend", except: ["k3"] },
        Template: { term: "Vorlage", use: "vorlage", reserved: true },
      },
    });
    const problems = glossaryProblems(dir, "de_DE", [
      { id: "ok1", english: "Backup {file} created", text: "Backup {file} erstellt" },
      { id: "b1", english: "Backup complete", text: "Sicherung abgeschlossen" },
      { id: "k1", english: "Server killed", text: "Server beendet" },
      { id: "k2", english: "Kill", text: "Beenden" },
      { id: "k3", english: "Kill switch", text: "Notschalter" },
      { id: "a1", english: "Shown in your time zone", text: "In deiner Zeitzone angezeigt" },
      // A placeholder's name is not a word of the message.
      { id: "ok2", english: "Your {du}", text: "Ihr {du}" },
      { id: "t1", english: "Console pattern", text: "Konsolenvorlage" },
      { id: "ok3", english: "Uninstall failed", text: "Deinstallation fehlgeschlagen" },
    ]);
    expect(problems.filter((p) => p.startsWith("ok"))).toEqual([]);
    expect(problems).toContain(
      'b1 says "Sicherung" for Backup (the glossary: Backup): Sicherung abgeschlossen',
    );
    expect(problems).toContain('b1 does not say Backup as "Backup": Sicherung abgeschlossen');
    expect(problems).toContain('k1 does not say Kill as "Sofort beenden": Server beendet');
    expect(problems).toContain(
      'k2 is the term "Kill" itself: the glossary says "Sofort beenden", the catalog "Beenden"',
    );
    expect(problems).toContain('k2 does not say Kill as "Sofort beenden": Beenden');
    expect(problems.some((p) => p.startsWith("k3"))).toBe(false);
    expect(problems).toContain('a1 addresses the user informally ("deiner"): In deiner Zeitzone angezeigt');
    expect(problems).toContain('t1 says "Vorlage" (Template) where the English does not: Konsolenvorlage');
    expect(problems).toHaveLength(7);
  });

  it("takes \\b at the edge of a word in any script", () => {
    write("ru_RU", { address: "formal", avoidAddress: ["\\b(ты|твой)\\b"], terms: {} });
    expect(glossaryProblems(dir, "ru_RU", [{ id: "a", english: "You", text: "Ты вошёл" }])).toHaveLength(1);
    expect(glossaryProblems(dir, "ru_RU", [{ id: "b", english: "Built", text: "Построено" }])).toEqual([]);
    expect(glossaryProblems(dir, "ru_RU", [{ id: "c", english: "Yours", text: "Это твойство" }])).toEqual([]);
  });

  it("reads an Arabic word however it is vocalised", () => {
    write("ar_SA", { terms: { Trigger: { term: "المُحفِّز", use: "محفز", avoid: ["مشغل"] } } });
    expect(glossaryProblems(dir, "ar_SA", [{ id: "t", english: "Trigger", text: "المُحفِّز" }])).toEqual([]);
    expect(glossaryProblems(dir, "ar_SA", [{ id: "t", english: "Trigger", text: "المشغِّل" }])).toHaveLength(3);
  });

  it("every locale's catalogs keep to its glossary", () => {
    const locales = readdirSync(LOCALES_DIR).filter(
      (l) => /^[a-z]{2}_[A-Z0-9]{2,3}$/.test(l) && l !== "en_US",
    );
    expect(locales.length).toBeGreaterThanOrEqual(33);
    for (const locale of locales)
      expect(glossaryProblems(LOCALES_DIR, locale, messagesOf(locale))).toEqual([]);
  });
});
