import { PassThrough } from "node:stream";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { HttpServer } from "../../../server/daemon/http/http-server.ts";
import { createLogger } from "../../../server/daemon/http/logger.ts";
import { Router } from "../../../server/daemon/http/router.ts";

/**
 * The daemon's own side of the answer contract: with checkAnswers on (in
 * tests), a route's JSON answer that breaks its `answer` schema is the node's
 * bug, answered 500 and logged with the route and the field, never sent on.
 */
describe("the daemon checks its answers against the route's answer schema", () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  const serve = async (checkAnswers: boolean) => {
    const router = new Router();
    const Answer = Type.Object({ count: Type.Integer() });
    router.get("/daemon/good", { answer: Answer }, () => ({ count: 3 }));
    router.get("/daemon/bad", { answer: Answer }, () => ({ count: "three" }));
    router.get("/daemon/loose", { answer: Answer }, () => ({ count: "3" }));
    const out = new PassThrough();
    let log = "";
    out.on("data", (chunk) => (log += chunk));
    const logger = createLogger({ level: "info", format: "json", colour: false }, out);
    server = new HttpServer({ router, log: logger, authorize: () => undefined, checkAnswers });
    const base = await server.listen("127.0.0.1", 0);
    return { base, log: () => log };
  };

  it("sends an answer that keeps it, and refuses one that breaks it with 500", async () => {
    const { base, log } = await serve(true);
    const good = await fetch(`${base}/daemon/good`);
    expect(await good.json()).toEqual({ count: 3 });
    const bad = await fetch(`${base}/daemon/bad`);
    expect(bad.status).toBe(500);
    expect(await bad.json()).toEqual({
      error: { code: "ErrUnknownError", msg: "an unexpected error occurred" },
    });
    expect(log()).toContain('the answer of /daemon/bad breaks its schema at \\"count\\"');
  });

  it("leaves answers unchecked when checking is off (a node in production): the serializer coerces or fails", async () => {
    const { base } = await serve(false);
    // What the check would refuse goes out coerced to the schema's type...
    expect(await (await fetch(`${base}/daemon/loose`)).json()).toEqual({ count: 3 });
    // ...or, when it cannot be, is a 500 in the envelope rather than a wrong shape.
    const bad = await fetch(`${base}/daemon/bad`);
    expect(bad.status).toBe(500);
    expect(await bad.json()).toEqual({
      error: { code: "ErrUnknownError", msg: "an unexpected error occurred" },
    });
  });
});
