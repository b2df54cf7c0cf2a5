import { describe, expect, it } from "vitest";
import { globalHotkeys, keyCaps, listedHotkeys } from "../../../src/app/hotkeyTable";
import { routes } from "../../../src/app/routes";
import { isTypingTarget } from "../../../src/app/typing";
import { hasScopeIn } from "../../../src/state/scopes";

const table = (loggedIn: boolean, scopes: string[]) =>
  globalHotkeys(routes, loggedIn, (s) => hasScopeIn(scopes, s)).map((e) => [e.keys, e.to ?? null]);

describe("hotkey table from the routes table", () => {
  it("gives an admin every g-hotkey of spec §2.2", () => {
    expect(table(true, ["admin"])).toEqual([
      ["/", null],
      ["?", null],
      ["Shift+?", null],
      ["Escape", null],
      ["g s", "/servers"],
      ["g n", "/nodes"],
      ["g u", "/users"],
      ["g t", "/templates"],
      ["g c", "/settings"],
      ["g a", "/self"],
    ]);
  });

  it("only offers routes a plain user may open", () => {
    const keys = table(true, ["login", "self.edit"]).map(([k]) => k);
    expect(keys).toContain("g s");
    expect(keys).toContain("g a");
    expect(keys).not.toContain("g n");
    expect(keys).not.toContain("g u");
    expect(keys).not.toContain("g t");
    expect(keys).not.toContain("g c");
  });

  it("signed out: no search, no navigation", () => {
    expect(table(false, []).map(([k]) => k)).toEqual(["?", "Shift+?", "Escape"]);
  });

  it("the help list hides ?, Shift+? and Escape, also for contextual entries", () => {
    const listed = listedHotkeys(globalHotkeys(routes, true, () => true)).map((e) => e.keys);
    expect(listed).toEqual(["/", "g s", "g n", "g u", "g t", "g c", "g a"]);
    const label = { id: "x" };
    expect(
      listedHotkeys([
        { keys: "Escape", label },
        { keys: "r", label },
      ]).map((e) => e.keys),
    ).toEqual(["r"]);
  });

  it("splits sequences and modifiers into key caps", () => {
    expect(keyCaps("g s")).toEqual(["g", "s"]);
    expect(keyCaps("Shift+?")).toEqual(["Shift", "?"]);
    expect(keyCaps("$mod+k")).toEqual(["$mod", "k"]);
  });

  it("does not fire while typing", () => {
    const el = (tagName: string, extra: Record<string, unknown> = {}) =>
      ({ tagName, ...extra }) as unknown as EventTarget;
    expect(isTypingTarget(el("INPUT", { type: "text" }))).toBe(true);
    expect(isTypingTarget(el("INPUT", { type: "search" }))).toBe(true);
    expect(isTypingTarget(el("TEXTAREA"))).toBe(true);
    expect(isTypingTarget(el("DIV", { isContentEditable: true }))).toBe(true);
    expect(isTypingTarget(el("INPUT", { type: "checkbox" }))).toBe(false);
    expect(isTypingTarget(el("BUTTON"))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
