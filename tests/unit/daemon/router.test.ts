import { describe, expect, it } from "vitest";
import { Router } from "../../../server/daemon/http/router.ts";
import { ApiError } from "../../../server/errors.ts";

/** A router with the shapes the daemon declares: static beside parameter, a wildcard, a socket. */
function daemonLike(): Router {
  const router = new Router();
  const nothing = () => undefined;
  router.get("/daemon", {}, nothing);
  router.get("/daemon/server/:id", {}, nothing);
  router.get("/daemon/server/:id/status", {}, nothing);
  router.get("/daemon/server/all", {}, nothing);
  router.post("/daemon/server/:id/console", {}, nothing);
  router.route({ methods: ["GET", "HEAD"], url: "/daemon/server/:id/file", schemas: {}, handler: nothing });
  router.route({ methods: ["GET", "HEAD"], url: "/daemon/server/:id/file/*", schemas: {}, handler: nothing });
  router.put("/daemon/server/:id/file/*", {}, nothing);
  router.socket("/daemon/server/:id/socket", {}, nothing);
  router.get("/daemon/transfer/:id/export", {}, nothing);
  router.head("/daemon/transfer/:id/export", {}, nothing);
  return router;
}

const routeOf = (router: Router, method: string, path: string) => router.find(method, path)?.route.url;

describe("the daemon's router", () => {
  const router = daemonLike();

  it("matches a parameter as one segment, percent-decoded", () => {
    expect(router.find("GET", "/daemon/server/ab12/status")).toMatchObject({
      route: { url: "/daemon/server/:id/status" },
      params: { id: "ab12" },
    });
    expect(router.find("GET", "/daemon/server/a%20b")?.params).toEqual({ id: "a b" });
    expect(router.find("GET", "/daemon/server/a%2Fb")?.params).toEqual({ id: "a/b" });
    expect(routeOf(router, "GET", "/daemon/server/ab12/status/more")).toBeUndefined();
  });

  it("prefers a static segment to a parameter", () => {
    expect(routeOf(router, "GET", "/daemon/server/all")).toBe("/daemon/server/all");
    expect(routeOf(router, "GET", "/daemon/server/alle")).toBe("/daemon/server/:id");
  });

  it("gives a final * the rest of the path, and the bare prefix its own route", () => {
    expect(router.find("GET", "/daemon/server/ab12/file/world/level.dat")).toMatchObject({
      route: { url: "/daemon/server/:id/file/*" },
      params: { id: "ab12", "*": "world/level.dat" },
    });
    expect(routeOf(router, "GET", "/daemon/server/ab12/file")).toBe("/daemon/server/:id/file");
    expect(routeOf(router, "PUT", "/daemon/server/ab12/file/a%20b.txt")).toBe("/daemon/server/:id/file/*");
  });

  it("ignores a trailing slash", () => {
    expect(routeOf(router, "GET", "/daemon/")).toBe("/daemon");
    expect(routeOf(router, "GET", "/daemon/server/ab12/status/")).toBe("/daemon/server/:id/status");
  });

  it("runs HEAD on the GET route unless there is a HEAD route, never on a socket", () => {
    const get = router.find("HEAD", "/daemon/server/ab12/status");
    expect(get?.route.methods).toEqual(["GET"]);
    expect(router.find("HEAD", "/daemon/transfer/t1/export")?.route.methods).toEqual(["HEAD"]);
    expect(router.find("HEAD", "/daemon/server/ab12/socket")).toBeUndefined();
    expect(router.find("GET", "/daemon/server/ab12/socket")?.route.socket).toBeTypeOf("function");
  });

  it("does not find a path known for another method only, nor an unknown one", () => {
    expect(router.find("DELETE", "/daemon/server/ab12/status")).toBeUndefined();
    expect(router.find("GET", "/daemon/server/ab12/console")).toBeUndefined();
    expect(router.find("GET", "/nowhere")).toBeUndefined();
    expect(router.find("GET", "/daemon/server//status")).toBeUndefined();
  });

  it("refuses a parameter that is not valid percent-encoding with a 400", () => {
    let thrown: unknown;
    try {
      router.find("GET", "/daemon/server/%E0%A4%A/status");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, code: "ErrBadUrl" });
  });
});
