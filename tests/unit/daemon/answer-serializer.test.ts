import { PassThrough } from "node:stream";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { TaskListView } from "../../../server/contract/node/task-wire.ts";
import { WireTemplate } from "../../../server/contract/node/template-wire.ts";
import { HttpServer } from "../../../server/daemon/http/http-server.ts";
import { createLogger } from "../../../server/daemon/http/logger.ts";
import { Router } from "../../../server/daemon/http/router.ts";
import { echoDefinition } from "../../support/echo-template.ts";

/**
 * A route's JSON answer is written by the serializer of its `answer` schema
 * (server/daemon/http/answer-serializer.ts): a field the schema does not name
 * never leaves the node, checked or not; parts the schema leaves open
 * (`additionalProperties: true`, `Type.Unsafe`) go out whole.
 */
describe("the daemon writes each answer with its route's answer schema", () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  const Answer = Type.Object({ name: Type.String(), items: Type.Array(Type.Object({ id: Type.Integer() })) });
  const task = {
    id: "t1",
    name: "restart",
    enabled: true,
    operations: [
      { type: "console", message: "say bye" },
      { type: "writefile", target: "motd.txt", text: "hi", extra: { nested: [1, 2] } },
    ],
    nextRun: null,
    lastRun: null,
  };
  const settings = { timezone: "UTC", concurrentLimit: 1, limitMode: "wait" };

  const serve = async (checkAnswers: boolean) => {
    const router = new Router();
    router.get("/daemon/inner", { answer: Answer }, () => ({
      name: "a",
      secretPath: "/srv/outpost/data/a",
      items: [{ id: 1, token: "t" }],
    }));
    router.get("/daemon/sent", { answer: Answer }, (_request, reply) =>
      reply.send({ name: "b", items: [], internal: true }),
    );
    router.get("/daemon/none", { answer: Answer }, () => {
      throw Object.assign(new Error("boom"), { detail: "x" });
    });
    router.get("/daemon/tasks", { answer: TaskListView }, () => ({ tasks: [task], settings }));
    router.get("/daemon/definition", { answer: WireTemplate }, () => ({
      ...echoDefinition(),
      uninstall: [{ type: "command", commands: ["rm -rf cache"] }],
      customField: { kept: true },
    }));
    router.get("/daemon/plain", {}, () => ({ anything: 1 }));
    const logger = createLogger({ level: "fatal", format: "json", colour: false }, new PassThrough());
    server = new HttpServer({ router, log: logger, authorize: () => undefined, checkAnswers });
    return server.listen("127.0.0.1", 0);
  };

  for (const checkAnswers of [true, false]) {
    it(`leaves out what the schema does not name (checks ${checkAnswers ? "on" : "off"})`, async () => {
      const base = await serve(checkAnswers);
      const inner = await fetch(`${base}/daemon/inner`);
      expect(inner.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const text = await inner.text();
      expect(JSON.parse(text)).toEqual({ name: "a", items: [{ id: 1 }] });
      expect(Number(inner.headers.get("content-length"))).toBe(Buffer.byteLength(text));
      // Sent through the reply too (as a folder listing is).
      expect(await (await fetch(`${base}/daemon/sent`)).json()).toEqual({ name: "b", items: [] });
      // A route without an answer schema answers as it did.
      expect(await (await fetch(`${base}/daemon/plain`)).json()).toEqual({ anything: 1 });
    });
  }

  it("sends a task's operations and a server's definition whole", async () => {
    const base = await serve(false);
    expect(await (await fetch(`${base}/daemon/tasks`)).json()).toEqual({ tasks: [task], settings });
    expect(await (await fetch(`${base}/daemon/definition`)).json()).toEqual({
      ...echoDefinition(),
      uninstall: [{ type: "command", commands: ["rm -rf cache"] }],
      customField: { kept: true },
    });
  });

  it("answers an error in the envelope, not in the route's answer schema", async () => {
    const base = await serve(true);
    const failed = await fetch(`${base}/daemon/none`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      error: { code: "ErrUnknownError", msg: "an unexpected error occurred" },
    });
  });
});
