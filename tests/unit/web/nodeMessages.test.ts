import fs from "node:fs";
import path from "node:path";
import { i18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { generateMessageId } from "@lingui/message-utils/generateMessageId";
import PO from "pofile";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type NodeMessageCode,
  nodeMessages,
  nodeMessageText,
} from "../../../server/contract/node/console-messages";
import { nodeMessage, nodeMessageWords } from "../../../src/screens/servers/console/nodeMessages";

// The client shows every code of the node's table in the page's language, foreign parts quoted.

const codes = Object.keys(nodeMessages) as NodeMessageCode[];
const placeholders = (message: string) => new Set([...message.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]));

const localesDir = path.resolve(import.meta.dirname, "../../../locales");
const presentLocales = () =>
  fs
    .readdirSync(localesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/** A locale's catalogs as Lingui loads them (id → compiled message). */
function catalog(locale: string) {
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const name of ["shell", "screens"]) {
    const po = PO.parse(fs.readFileSync(path.join(localesDir, locale, `${name}.po`), "utf8"));
    for (const item of po.items) {
      if (item.msgstr[0])
        messages[generateMessageId(item.msgid, item.msgctxt ?? "")] = compileMessage(item.msgstr[0]);
    }
  }
  return messages;
}

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

describe("the node's console lines in the page's language", () => {
  it("has words for every code, whose placeholders the code's arguments fill", () => {
    for (const code of codes) {
      const words = nodeMessageWords[code];
      expect(words, code).toBeDefined();
      const args = Object.keys((nodeMessages[code] as { args?: object }).args ?? {});
      const given = new Set([...args, ...Object.keys(words.values?.({}) ?? {})]);
      for (const name of placeholders(words.message.message ?? ""))
        expect(given, `${code}: ${name}`).toContain(name);
    }
  });

  it("has every code's words translated in every locale", () => {
    for (const locale of presentLocales()) {
      const po = PO.parse(fs.readFileSync(path.join(localesDir, locale, "screens.po"), "utf8"));
      const translated = new Set(po.items.filter((i) => i.msgstr[0]).map((i) => i.msgid));
      for (const code of codes) {
        expect(translated.has(nodeMessageWords[code].message.message ?? ""), `${locale} ${code}`).toBe(true);
      }
    }
    // 34 catalogs to read, on a busy machine.
  }, 30_000);

  it("shows the page's words, the foreign part apart to be quoted; unknown lines are left alone", () => {
    expect(nodeMessage("Starting server")).toEqual(["Starting server"]);
    expect(nodeMessage("Install failed: fatal: unable to access 'x'")).toEqual([
      "Install failed: ",
      { quoted: "fatal: unable to access 'x'" },
    ]);
    expect(nodeMessage("Moving file from a b to c")).toEqual([
      "Moving ",
      { quoted: "a b" },
      " to ",
      { quoted: "c" },
    ]);
    expect(nodeMessage(nodeMessageText("extracted", { count: 1, archive: "a.zip" }))).toEqual([
      "Extracted 1 entry from ",
      { quoted: "a.zip" },
    ]);
    expect(nodeMessage("Something the client does not know")).toBeUndefined();
    // A process cannot pass its own line off as the node's by sharing a prefix.
    expect(nodeMessage("Starting server now, says the game")).toBeUndefined();
  });

  it("translates with plurals and keeps foreign text out of the translation (German, Arabic)", () => {
    i18n.loadAndActivate({ locale: "de-DE", messages: catalog("de_DE") });
    expect(nodeMessage("Starting server")).toEqual(["Server wird gestartet"]);
    const one = nodeMessage(nodeMessageText("extracted", { count: 1, archive: "a.zip" })) ?? [];
    const many = nodeMessage(nodeMessageText("extracted", { count: 5, archive: "a.zip" })) ?? [];
    expect(one).toContainEqual({ quoted: "a.zip" });
    expect(one.join("")).not.toEqual(many.join(""));
    expect(many.filter((p) => typeof p === "string").join("")).toContain("5");
    i18n.loadAndActivate({ locale: "ar-SA", messages: catalog("ar_SA") });
    const pulled = nodeMessage("Pulled image alpine:latest") ?? [];
    expect(pulled).toContainEqual({ quoted: "alpine:latest" });
    expect(pulled.filter((p) => typeof p === "string").join("")).toMatch(/[\u0600-\u06FF]/);
    i18n.loadAndActivate({ locale: "en", messages: {} });
  });

  it('counts crashes as a plural (issue 41: it read "1 times")', () => {
    expect(nodeMessage(nodeMessageText("crashLimit", { count: 1 }))).toEqual([
      "Server crashed 1 time in a row; not restarting it",
    ]);
    expect(nodeMessage(nodeMessageText("crashLimit", { count: 3 }))).toEqual([
      "Server crashed 3 times in a row; not restarting it",
    ]);
  });

  it("reads a task run's own lines by the same table, in the page's language (German)", () => {
    i18n.loadAndActivate({ locale: "de-DE", messages: catalog("de_DE") });
    expect(nodeMessage(nodeMessageText("taskOperation", { number: 2, type: "console" }))).toEqual([
      "Vorgang 2: Zeile an die Konsole senden",
    ]);
    expect(nodeMessage(nodeMessageText("taskBackupRemoved", { file: "a.tar.gz", keep: 1 }))).toEqual([
      "Backup ",
      { quoted: "a.tar.gz" },
      " entfernt (1 Backup wird behalten)",
    ]);
    const failed = "operation 1 (command): exit status 2";
    expect(nodeMessage(failed)).toEqual(["Vorgang 1 (Befehl ausführen): ", { quoted: "exit status 2" }]);
    expect(
      nodeMessage(nodeMessageText("taskOperationTimedOut", { number: 1, type: "sleep", seconds: 5 })),
    ).toEqual(["Vorgang 1 (Warten): hat länger als 5 Sekunden gedauert"]);
    // A run's message when it did not run to its end.
    expect(nodeMessage("skipped: 2 task runs of this server are under way")).toEqual([
      "Übersprungen: 2 Ausführungen der Aufgaben dieses Servers laufen bereits",
    ]);
    i18n.loadAndActivate({ locale: "en", messages: {} });
  });
});
