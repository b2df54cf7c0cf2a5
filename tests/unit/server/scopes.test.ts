import { describe, expect, it } from "vitest";
import { globalScopes, serverScopes } from "../../../server/contract/scopes.ts";
import {
  holdsScope,
  isServerScope,
  joinScopes,
  parseScopes,
  registeredUserScopes,
} from "../../../server/panel/scopes.ts";

describe("holdsScope (reference §2.2)", () => {
  it("holds a listed scope and nothing else", () => {
    expect(holdsScope(["login", "self.edit"], "self.edit")).toBe(true);
    expect(holdsScope(["login", "self.edit"], "settings.edit")).toBe(false);
    expect(holdsScope([], "login")).toBe(false);
  });

  it("does not match prefixes: server.data.edit is not server.data.edit.admin", () => {
    expect(holdsScope(["server.data.edit"], "server.data.edit.admin")).toBe(false);
    expect(holdsScope(["nodes"], "nodes.view")).toBe(false);
  });

  it("lets admin pass every scope, global and server", () => {
    for (const scope of [...globalScopes, ...serverScopes]) expect(holdsScope(["admin"], scope)).toBe(true);
  });

  it("lets server.admin pass every server scope but no global one", () => {
    for (const scope of serverScopes) expect(holdsScope(["server.admin"], scope), scope).toBe(true);
    for (const scope of globalScopes.filter((s) => s !== "admin")) {
      expect(holdsScope(["server.admin"], scope), scope).toBe(false);
    }
  });

  it("treats server.create as a global scope despite its name", () => {
    expect(isServerScope("server.create")).toBe(false);
    expect(holdsScope(["server.admin"], "server.create")).toBe(false);
    expect(isServerScope("server.view")).toBe(true);
  });

  it("grants registered users login, self.edit and self.clients only", () => {
    expect(registeredUserScopes).toEqual(["login", "self.edit", "self.clients"]);
    expect(holdsScope(registeredUserScopes, "settings.edit")).toBe(false);
  });
});

describe("stored scopes", () => {
  it("round-trip comma-joined, without duplicates or empty entries", () => {
    expect(joinScopes(["login", "admin", "login"])).toBe("login,admin");
    expect(parseScopes("login,,admin,")).toEqual(["login", "admin"]);
    expect(parseScopes("")).toEqual([]);
    expect(parseScopes(joinScopes(["a.b", "c"]))).toEqual(["a.b", "c"]);
  });
});
