import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { signNodeToken } from "../../server/contract/node/node-token.ts";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError } from "../support/expect-api.ts";
import { freePort } from "../support/free-port.ts";
import { type CallOptions, PanelClient } from "../support/http-client.ts";
import { waitUntil } from "../support/poll.ts";

/**
 * What the daemon's own HTTP layer (node:http and its router, no Fastify)
 * decides before any route runs, against a real `outpost daemon`: not
 * found, malformed or oversized bodies, requests its schemas refuse, no
 * token — each in the API's error envelope, never with internals — and its
 * WebSockets, refused and closed.
 */
describe("the daemon's HTTP layer", () => {
  const secret = randomBytes(32).toString("hex");
  let daemon: DaemonProcess;
  let client: PanelClient;
  const signed = (opts: CallOptions = {}): CallOptions => ({ ...opts, bearer: signNodeToken(5, secret) });
  const call = (method: string, path: string, opts: CallOptions = {}) =>
    client.call(method, path, signed(opts));

  beforeAll(async () => {
    daemon = await startDaemon({
      nodeId: 5,
      secret,
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: "unused",
    });
    client = new PanelClient(daemon.baseUrl);
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  it("answers an unknown endpoint 404 in the envelope, and only once the token is good", async () => {
    const res = await call("GET", "/daemon/nothing/here");
    expectError(res, 404, "ErrNotFound");
    expect(res.body).toEqual({ error: { code: "ErrNotFound", msg: "no such endpoint" } });
    // A known path with a method it does not have is not found either (as Fastify answered).
    expectError(await call("PATCH", "/daemon/features"), 404, "ErrNotFound");
    const anonymous = await client.call("GET", "/daemon/nothing/here");
    expectError(anonymous, 401, "ErrTokenInvalid");
    expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="outpost"');
  });

  it("ignores a trailing slash and answers HEAD for a GET route", async () => {
    expect((await call("GET", "/daemon/features/")).status).toBe(200);
    expect((await client.call("GET", "/daemon/")).body).toEqual({ message: "daemon is running" });
    const head = await call("HEAD", "/daemon/features");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
  });

  it("refuses malformed JSON, an empty JSON body and prototype poisoning with 400", async () => {
    const json = { "content-type": "application/json" };
    for (const raw of ['{"a":', "", '{"__proto__":{"x":1}}', '{"\\u005f_proto__":{}}']) {
      const res = await call("PUT", "/daemon/server/abc00001", { raw, headers: json });
      expectError(res, 400, "ErrInvalidJson");
    }
    const poisoned = '{"constructor":{"prototype":{"x":1}}}';
    expectError(
      await call("PUT", "/daemon/server/abc00001", { raw: poisoned, headers: json }),
      400,
      "ErrInvalidJson",
    );
  });

  it("refuses a body over its limit with 413, announced or streamed", async () => {
    const big = JSON.stringify({ text: "x".repeat(1024 * 1024 + 10) });
    const res = await call("PUT", "/daemon/server/abc00001", {
      raw: big,
      headers: { "content-type": "application/json" },
    });
    expectError(res, 413, "ErrBodyTooLarge");

    // Sent in chunks without a Content-Length: counted as it arrives.
    const chunk = Buffer.alloc(256 * 1024, "a");
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await fetch(`${daemon.baseUrl}/daemon/server/abc00001/console`, {
      method: "POST",
      headers: { authorization: `Bearer ${signNodeToken(5, secret)}`, "content-type": "text/plain" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).error.code).toBe("ErrBodyTooLarge");
  });

  it("refuses a body of a type it does not read with 415", async () => {
    const res = await call("PUT", "/daemon/server/abc00001", {
      raw: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(res, 415, "ErrUnsupportedMediaType");
  });

  it("checks path, query and body against the route's schema", async () => {
    expectError(await call("GET", `/daemon/server/${"a".repeat(65)}/status`), 400, "ErrFieldLength", {
      field: "id",
      min: 1,
      max: 64,
    });
    expectError(await call("GET", "/daemon/server/abc00001/console?time=-1"), 400, "ErrFieldNotBetween", {
      field: "time",
    });
    expectError(await call("GET", "/daemon/server/abc00001/console?time=soon"), 400, "ErrFieldType", {
      field: "time",
      type: "integer",
    });
    expectError(await call("POST", "/daemon/sftp/end", { json: { userId: "7" } }), 400, "ErrFieldType", {
      field: "userId",
    });
    expectError(await call("POST", "/daemon/sftp/end", { json: {} }), 400, "ErrFieldRequired", {
      field: "userId",
    });
    expectError(await call("GET", "/daemon/server/%zz/status"), 400, "ErrBadUrl");
    // Query text is converted to the schema's type: ?time=0 is the number 0, not refused.
    expectError(await call("GET", "/daemon/server/abc00001/console?time=0"), 404, "ErrServerNotFound");
  });

  const socketAnswer = (path: string, token?: string) =>
    new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${daemon.baseUrl.replace(/^http/, "ws")}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      socket.on("open", () => {
        socket.close();
        resolve(101);
      });
      socket.on("error", reject);
    });

  it("refuses a WebSocket without a token (401) or on an unknown path (404)", async () => {
    expect(await socketAnswer("/daemon/server/abc00001/socket?console")).toBe(401);
    expect(await socketAnswer("/daemon/nothing/socket", signNodeToken(5, secret))).toBe(404);
    expect(await socketAnswer("/daemon/server/abc00001/socket?console", signNodeToken(5, secret))).toBe(101);
  });

  it("serves the node's live stream only with this node's token, and closes it on a frame it does not know", async () => {
    expect(await socketAnswer("/daemon/live")).toBe(401);
    expect(await socketAnswer("/daemon/live", signNodeToken(6, secret))).toBe(401);
    const id = "abc00003";
    expect((await call("PUT", `/daemon/server/${id}`, { json: echoDefinition() })).status).toBe(200);
    const socket = new WebSocket(`${daemon.baseUrl.replace(/^http/, "ws")}/daemon/live`, {
      headers: { authorization: `Bearer ${signNodeToken(5, secret)}` },
    });
    const frames: Record<string, unknown>[] = [];
    socket.on("message", (data) => frames.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    socket.send(JSON.stringify({ type: "subscribe", ids: [id, "abc0ffff"] }));
    await waitUntil(async () => frames.length >= 2, 10_000, 20);
    expect(frames).toEqual(
      expect.arrayContaining([
        {
          type: "status",
          id,
          status: { running: false, installing: false, installed: true },
          limits: expect.any(Object),
        },
        { type: "gone", id: "abc0ffff" },
      ]),
    );
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    socket.send(JSON.stringify({ type: "watch", ids: [id] }));
    expect(await closed).toBe(1008);
  });

  it("closes its WebSockets with 1001 when it stops, and comes back", async () => {
    const id = "abc00002";
    expect((await call("PUT", `/daemon/server/${id}`, { json: echoDefinition() })).status).toBe(200);
    const socket = new WebSocket(
      `${daemon.baseUrl.replace(/^http/, "ws")}/daemon/server/${id}/socket?status`,
      {
        headers: { authorization: `Bearer ${signNodeToken(5, secret)}` },
      },
    );
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    await daemon.stop();
    expect(await closed).toBe(1001);
    expect(daemon.logs()).toContain("SIGTERM: stopping");
    await daemon.start();
    expect((await call("GET", `/daemon/server/${id}/status`)).status).toBe(200);
  });
});
