import fs from "node:fs";
import path from "node:path";
import { i18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { generateMessageId } from "@lingui/message-utils/generateMessageId";
import PO from "pofile";
import { beforeAll, describe, expect, it } from "vitest";
import { errorMessage } from "../../../src/i18n/errorMessages";
import { actionLabel } from "../../../src/screens/activity/actionLabels";
import { detailFields, subjectText } from "../../../src/screens/activity/activityDetails";
import { scopeLabel } from "../../../src/screens/servers/scopes/scopeLabels";

// An entry's details as people read them, in German (the catalogs the app is built from).

const localesDir = path.resolve(import.meta.dirname, "../../../locales");

function catalog(locale: string) {
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const name of ["shell", "screens"]) {
    const po = PO.parse(fs.readFileSync(path.join(localesDir, locale, `${name}.po`), "utf8"));
    for (const item of po.items)
      if (item.msgstr[0])
        messages[
          // Messages with an explicit id (the API errors') are keyed by it.
          item.msgid.startsWith("errors.") ? item.msgid : generateMessageId(item.msgid, item.msgctxt ?? "")
        ] = compileMessage(item.msgstr[0]);
  }
  return messages;
}

const scope = (name: string) => i18n._(scopeLabel(name) ?? { id: name });

beforeAll(() => {
  i18n.loadAndActivate({ locale: "de", messages: catalog("de_DE") });
});

describe("activity details in the page's words", () => {
  it("names an action in German and an unknown one by its code", () => {
    expect(actionLabel("server.rename")).toBe("Server umbenannt");
    expect(actionLabel("server.somethingNew")).toBe("server.somethingNew");
  });

  it("shows a scope list as the picker does, and what a grant added and took away", () => {
    const [field] = detailFields(
      { scopes: ["server.view", "server.stop"], before: { scopes: ["server.view", "server.start"] } },
      "de-DE",
    );
    expect(field.label).toBe("Berechtigungen");
    expect(field.added).toEqual([{ text: scope("server.stop"), title: "server.stop" }]);
    expect(field.removed).toEqual([{ text: scope("server.start"), title: "server.start" }]);
    expect(scope("server.stop")).not.toBe("Stop");

    const [plain] = detailFields({ scopes: ["server.view", "server.start"] }, "de-DE");
    expect(plain.value?.text).toBe(`${scope("server.view")} und ${scope("server.start")}`);
    expect(plain.value?.title).toBe("server.view, server.start");
  });

  it("puts what was before beside a changed value, and nothing beside an unchanged one", () => {
    const [renamed] = detailFields({ name: "Neu", before: { name: "Alt" } }, "de-DE");
    expect(renamed).toMatchObject({ label: "Name", value: { text: "Neu" }, before: { text: "Alt" } });
    const [same] = detailFields({ name: "Neu", before: { name: "Neu" } }, "de-DE");
    expect(same.before).toBeUndefined();
  });

  it("keeps objects short and readable, never raw JSON, and says what is hidden", () => {
    const fields = detailFields(
      { query: { folder: "", deep: { a: 1 } }, password: "[redacted]", otp: true, bytes: 1500 },
      "de-DE",
    );
    const text = (key: string) => fields.find((f) => f.key === key)?.value?.text;
    expect(text("query")).toBe("Ordner: —, deep: …");
    expect(text("password")).toBe("verborgen");
    expect(text("otp")).toBe("ja");
    expect(text("bytes")).toMatch(/^1,5\s?kB$/);
    for (const f of fields) expect(f.value?.text ?? "").not.toMatch(/[{}[\]"]/);
  });

  it("words an error code whose message needs nothing more, and keeps the code of one that does", () => {
    const [done] = detailFields({ error: "ErrInvalidCredentials" }, "de-DE");
    const words = errorMessage("ErrInvalidCredentials");
    expect(words).toBeDefined();
    expect(done.value).toEqual({ text: i18n._(words!), title: "ErrInvalidCredentials" });
    expect(done.value?.text).not.toBe("Invalid credentials");
    const [needs] = detailFields({ error: "ErrMissingScope" }, "de-DE");
    expect(needs.value).toEqual({ text: "ErrMissingScope" });
  });

  it("words a subject's known parts and leaves a path alone", () => {
    expect(subjectText("email:ann@example.com")).toBe("E-Mail: ann@example.com");
    expect(subjectText("repo:main name:minecraft")).toBe("Repository: main · Name: minecraft");
    expect(subjectText("/logs/latest.log")).toBe("/logs/latest.log");
    expect(subjectText("weird:thing")).toBe("weird:thing");
    expect(subjectText("user:3", {}, "ann")).toBe("Benutzer: ann");
    expect(subjectText("user:3")).toBe("Benutzer: 3");
    // A rename's subject is its new name, which the details show already.
    expect(subjectText("name:Neu", { name: "Neu", before: { name: "Alt" } })).toBe("");
  });
});
