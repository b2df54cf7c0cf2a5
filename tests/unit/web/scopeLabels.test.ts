import { describe, expect, it } from "vitest";
import { globalScopes, serverScopes } from "../../../server/contract/scopes.ts";
import { scopeGroups, scopeLabel } from "../../../src/screens/servers/scopes/scopeLabels";
import { globalScopeGroups } from "../../../src/screens/users/globalScopeLabels";

describe("scope labels", () => {
  it("list every server scope of the panel exactly once, each with a label", () => {
    const listed = scopeGroups.flatMap((g) => g.scopes.map((s) => s.scope));
    expect([...listed].sort()).toEqual([...serverScopes].sort());
    expect(new Set(listed).size).toBe(listed.length);
    for (const scope of serverScopes) expect(scopeLabel(scope)?.message, scope).toBeTruthy();
  });

  it("give every group a label and distinct labels within a group", () => {
    for (const group of scopeGroups) {
      expect(group.label.message).toBeTruthy();
      const texts = group.scopes.map((s) => s.label.message);
      expect(new Set(texts).size, group.id).toBe(texts.length);
    }
    expect(scopeLabel("admin")).toBeUndefined();
  });
});

describe("the SFTP permission's note (issue 22, point 3)", () => {
  const note = scopeGroups.flatMap((g) => g.scopes).find((s) => s.scope === "server.sftp")?.note;
  const noteWith = (...held: string[]) => note?.((scope) => held.includes(scope))?.message;

  it("says what SFTP allows with the file permissions chosen beside it", () => {
    expect(noteWith("server.sftp")).toMatch(/needs .Browse and download files. to sign in/);
    expect(noteWith("server.sftp", "server.files.edit")).toMatch(/needs .Browse and download files./);
    expect(noteWith("server.sftp", "server.files.view")).toMatch(
      /read-only without .Change, upload and delete files./,
    );
    expect(noteWith("server.sftp", "server.files.view", "server.files.edit")).toBeUndefined();
    expect(noteWith("server.files.view")).toBeUndefined();
  });
});

describe("global scope labels", () => {
  it("list every global scope a route checks exactly once, each with a label", () => {
    const listed = globalScopeGroups.flatMap((g) => g.scopes.map((s) => s.scope));
    const checked = globalScopes.filter((s) => s !== "oauth2.auth" && s !== "panel");
    expect([...listed].sort()).toEqual([...checked].sort());
    expect(new Set(listed).size).toBe(listed.length);
    for (const group of globalScopeGroups) {
      expect(group.label.message).toBeTruthy();
      for (const s of group.scopes) expect(s.label.message, s.scope).toBeTruthy();
    }
  });
});
