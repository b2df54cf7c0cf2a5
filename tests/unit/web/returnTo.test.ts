import { describe, expect, it } from "vitest";
import { makeReturnTo, RETURN_TO_KEY, saveReturnTo, takeReturnTo } from "../../../src/app/returnTo";
import { routes } from "../../../src/app/routes";
import { memoryStorage } from "./memoryStorage";

describe("returnTo", () => {
  it("keeps route, params, query and hash of a guarded visit and restores the same address", () => {
    const store = memoryStorage();
    const target = makeReturnTo(routes, "/servers/view/ab12cd34", "?tab=files", "#console");
    expect(target).toEqual({
      route: "/servers/view/:id",
      params: { id: "ab12cd34" },
      query: "tab=files",
      hash: "console",
    });
    saveReturnTo(store, target);
    expect(JSON.parse(store.data.get(RETURN_TO_KEY)!)).toMatchObject({ route: "/servers/view/:id" });
    expect(takeReturnTo(store, routes)).toBe("/servers/view/ab12cd34?tab=files#console");
    // read once: a second login goes to the default page
    expect(takeReturnTo(store, routes)).toBeNull();
  });

  it("encodes params with slashes or spaces so they come back as one segment", () => {
    const store = memoryStorage();
    saveReturnTo(store, makeReturnTo(routes, "/templates/view/1/my%20tpl"));
    expect(takeReturnTo(store, routes)).toBe("/templates/view/1/my%20tpl");
  });

  it("does not remember sign-in pages, the root or unknown addresses", () => {
    expect(makeReturnTo(routes, "/auth/login")).toBeNull();
    expect(makeReturnTo(routes, "/auth/register")).toBeNull();
    expect(makeReturnTo(routes, "/")).toBeNull();
    expect(makeReturnTo(routes, "/nowhere")).toBeNull();
  });

  it("ignores stored values that are not a known route (tampering, old versions)", () => {
    const store = memoryStorage();
    store.setItem(
      RETURN_TO_KEY,
      JSON.stringify({ route: "//evil.example", params: {}, query: "", hash: "" }),
    );
    expect(takeReturnTo(store, routes)).toBeNull();
    store.setItem(RETURN_TO_KEY, "{not json");
    expect(takeReturnTo(store, routes)).toBeNull();
    store.setItem(RETURN_TO_KEY, JSON.stringify({ route: "/auth/login" }));
    expect(takeReturnTo(store, routes)).toBeNull();
  });

  it("treats a trailing slash as the same route", () => {
    expect(makeReturnTo(routes, "/nodes/")?.route).toBe("/nodes");
  });
});
