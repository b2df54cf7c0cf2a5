import { describe, expect, it } from "vitest";
import { decide, permitted } from "../../../src/app/access";
import { findRoute } from "../../../src/app/routeMatch";
import { routes } from "../../../src/app/routes";
import { hasScopeIn } from "../../../src/state/scopes";

const route = (path: string) => findRoute(routes, path)!.route;
const holds = (scopes: string[]) => (s: string) => hasScopeIn(scopes, s);

describe("router guard", () => {
  it("sends / to the server list when signed in, else to Login", () => {
    expect(decide(route("/"), true, holds([]))).toEqual({ type: "redirect", to: "/servers" });
    expect(decide(route("/"), false, holds([]))).toEqual({ type: "redirect", to: "/auth/login" });
  });

  it("sends signed-in users away from noAuth pages", () => {
    expect(decide(route("/auth/login"), true, holds(["login"]))).toEqual({
      type: "redirect",
      to: "/servers",
    });
    expect(decide(route("/auth/register"), false, holds([]))).toEqual({ type: "render" });
  });

  it("remembers the target when a signed-out visitor opens a protected page", () => {
    expect(decide(route("/servers/view/1"), false, holds([]))).toEqual({
      type: "redirect",
      to: "/auth/login",
      rememberTarget: true,
    });
  });

  it("checks the route's scope; admin implies every scope", () => {
    expect(decide(route("/nodes"), true, holds(["login"]))).toEqual({ type: "forbidden" });
    expect(decide(route("/nodes"), true, holds(["login", "nodes.view"]))).toEqual({ type: "render" });
    expect(decide(route("/settings"), true, holds(["admin"]))).toEqual({ type: "render" });
    expect(decide(route("/servers"), true, holds(["login"]))).toEqual({ type: "render" });
  });

  it("a signed-out user holds nothing", () => {
    expect(permitted({ scope: "nodes.view" }, false, () => true)).toBe(false);
    expect(permitted("login", false, () => true)).toBe(false);
    expect(permitted("noAuth", false, () => false)).toBe(true);
  });
});
