import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { alertTextProblems } from "../../../scripts/i18n/alert-texts.ts";
import { alertText, englishAlertTexts } from "../../../server/panel/notifications/alert-texts.ts";

describe("alert texts (issue 41)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "outpost-alert-texts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("builds an alert in the recipient's language, the detail and node where they are known", () => {
    const values = { server: "Lobby", node: "", detail: "" };
    expect(alertText("server.crashed", "de_DE", values).title).toBe("Lobby ist abgestürzt");
    expect(alertText("server.crashed", "ja_JP", { ...values, node: "n1" }).message).toContain("n1");
    expect(alertText("backup.failed", "fr_FR", { ...values, detail: "disk full" }).message).toBe(
      "Une sauvegarde du serveur Lobby a échoué : disk full",
    );
    // English for English, a locale without a file, and a name that is no catalog's.
    for (const locale of ["en_US", "xx_XX", "../../etc", undefined])
      expect(alertText("server.crashed", locale, values).title).toBe("Lobby crashed");
  });

  it("finds what a locale's file lacks or breaks", () => {
    mkdirSync(path.join(dir, "de_DE"));
    expect(alertTextProblems(dir, "de_DE")).toEqual(["alerts.json missing"]);
    writeFileSync(
      path.join(dir, "de_DE", "alerts.json"),
      JSON.stringify({
        "server.crashed": { title: "{server} crashed", message: "Abgestürzt.", messageOnNode: "Auf {node}" },
        "server.exploded": { title: "x" },
      }),
    );
    const problems = alertTextProblems(dir, "de_DE");
    expect(problems).toContain("alert server.crashed/title still English: {server} crashed");
    expect(problems).toContain("alert server.crashed/message placeholders differ: Abgestürzt.");
    expect(problems).toContain("alert server.crashed/messageOnNode placeholders differ: Auf {node}");
    expect(problems).toContain(
      `alert disk.nearLimit/message untranslated: ${englishAlertTexts["disk.nearLimit"].message}`,
    );
    expect(problems).toContain("alert server.exploded: no longer an alert");
  });

  it("has every locale of the repository complete", () => {
    const locales = path.resolve(import.meta.dirname, "../../../locales");
    for (const locale of ["de_DE", "ar_SA", "zh_TW", "sr_SP"])
      expect(alertTextProblems(locales, locale)).toEqual([]);
  });
});
