import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signNodeToken } from "../../server/contract/node/node-token.ts";
import { RemoteNode } from "../../server/link/remote-node.ts";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError } from "../support/expect-api.ts";
import { freePort } from "../support/free-port.ts";
import { PanelClient } from "../support/http-client.ts";

/**
 * Both sides of the panel↔node contract (server/contract/node) hold the other
 * to it: the panel refuses a node answer that breaks its schema (502
 * ErrNodeAnswer naming the node, the daemon path and the field) instead of
 * passing it on, and a real daemon refuses a body that breaks its route's
 * schema (400 naming the field).
 */
describe("the panel checks each node answer against the contract", () => {
  /** What the stand-in node answers per path; anything else is 404 in the envelope. */
  const answers = new Map<string, { type?: string; body: string }>();
  let server: http.Server;
  let node: RemoteNode;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const answer = answers.get((req.url ?? "").split("?")[0]);
      if (!answer) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "ErrNotFound" } }));
        return;
      }
      res.writeHead(200, { "content-type": answer.type ?? "application/json; charset=utf-8" });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    node = new RemoteNode({ nodeId: 9, secret: "s".repeat(32), baseUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const data = (value: unknown) =>
    JSON.stringify({ data: { motd: { type: "string", value, display: "MOTD" } }, groups: [] });

  it("takes an answer that keeps its schema", async () => {
    answers.set("/daemon/server/x/data", { body: data("hello") });
    await expect(node.servers.serverData("x", false)).resolves.toEqual({
      data: { motd: { type: "string", value: "hello", display: "MOTD" } },
      groups: [],
    });
  });

  it("refuses a field of the wrong type: 502 ErrNodeAnswer naming the node, the path and the field", async () => {
    answers.set("/daemon/server/x/data", { body: data({ not: "a value" }) });
    const failure = await node.servers.serverData("x", true).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 502,
      code: "ErrNodeAnswer",
      metadata: { node: 9, path: "/daemon/server/x/data", field: "data.motd.value" },
    });
  });

  it("refuses a missing field, an answer that is not JSON, and one in a list", async () => {
    answers.set("/daemon/server/x/status", { body: JSON.stringify({ running: true }) });
    await expect(node.servers.status("x")).rejects.toMatchObject({
      status: 502,
      code: "ErrNodeAnswer",
      metadata: { path: "/daemon/server/x/status", field: "installing" },
    });
    answers.set("/daemon/server/x/stats", { body: "{not json" });
    await expect(node.servers.stats("x")).rejects.toMatchObject({
      code: "ErrNodeAnswer",
      metadata: { path: "/daemon/server/x/stats", field: "" },
    });
    answers.set("/daemon/server/x/stats", { type: "text/plain", body: "cpu 3" });
    await expect(node.servers.stats("x")).rejects.toMatchObject({
      code: "ErrNodeAnswer",
      metadata: { path: "/daemon/server/x/stats", field: "" },
    });
    const runs = [{ id: 1, trigger: "manual", started: "t", finished: null, success: null, output: "" }];
    answers.set("/daemon/server/x/tasks/t1/runs", { body: JSON.stringify(runs) });
    await expect(node.tasks.runs("x", "t1")).rejects.toMatchObject({
      code: "ErrNodeAnswer",
      metadata: { path: "/daemon/server/x/tasks/t1/runs", field: "0.message" },
    });
  });

  it("checks a folder listing too, which comes through the streaming call", async () => {
    answers.set(`/daemon/server/x/file/${encodeURIComponent("/")}`, {
      body: JSON.stringify([{ name: "a.txt", isFile: "yes" }]),
    });
    await expect(node.files.read("x", "")).rejects.toMatchObject({
      code: "ErrNodeAnswer",
      metadata: { field: "0.isFile" },
    });
  });

  it("still answers a node's own refusal as the node gave it", async () => {
    answers.delete("/daemon/server/x/flags");
    await expect(node.servers.flags("x")).rejects.toMatchObject({ status: 404, code: "ErrNotFound" });
  });
});

describe("a real daemon checks each request against the contract", () => {
  const secret = randomBytes(32).toString("hex");
  let daemon: DaemonProcess;
  let client: PanelClient;
  const call = (method: string, path: string, json?: unknown) =>
    client.call(method, path, { json, bearer: signNodeToken(6, secret) });

  beforeAll(async () => {
    daemon = await startDaemon({
      nodeId: 6,
      secret,
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: "unused",
    });
    client = new PanelClient(daemon.baseUrl);
    expect((await call("PUT", "/daemon/server/abc00003", echoDefinition())).status).toBe(200);
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  /** 400 in the envelope, an ErrField… code, naming the field. */
  const refused = async (method: string, path: string, json: unknown, field: string) => {
    const res = await call(method, path, json);
    expectError(res, 400, (res.body as { error?: { code?: string } })?.error?.code ?? "", { field });
    expect((res.body as { error: { code: string } }).error.code).toMatch(/^ErrField/);
  };

  it("refuses a body that breaks its schema with 400 naming the field", async () => {
    const data = "/daemon/server/abc00003/data";
    await refused("POST", data, { values: { motd: ["x"] }, onlyUserEditable: false }, "values.motd");
    await refused("POST", data, { values: {} }, "onlyUserEditable");
    await refused("POST", "/daemon/server/abc00003/flags", { autoStart: "yes" }, "autoStart");
    await refused("POST", "/daemon/transfer/abc00003/pull", { url: "ftp://elsewhere", grant: "g" }, "url");
    await refused("POST", "/daemon/sftp/end", { userId: -1 }, "userId");
    expectError(
      await call("POST", "/daemon/server/abc00003/flags", { autoStart: "yes" }),
      400,
      "ErrFieldType",
      { field: "autoStart", type: "boolean" },
    );
  });

  it("takes a body that keeps it, and answers in its answer schema", async () => {
    expect((await call("POST", "/daemon/server/abc00003/flags", { autoStart: true })).status).toBe(204);
    const flags = await call("GET", "/daemon/server/abc00003/flags");
    expect(flags.body).toEqual({ autoStart: true, autoRestartOnCrash: false, autoRestartOnGraceful: false });
  });

  it("answers only the fields its answer schema names: a history point's extra fields on disk stay home", async () => {
    // Hourly roll-ups as a node keeps them, one with a field no schema names (as a newer node's might).
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / hour) * hour - 5 * hour;
    const rolled = [0, 1, 2].map((i) => ({
      time: start + i * hour,
      cpu: 10 + i,
      memory: 1_000_000 * (i + 1),
      n: 120,
      min: { cpu: 1, memory: 1000, n: 120 },
      max: { cpu: 50, memory: 9_000_000 },
      sampledBy: "/srv/outpost/internal",
    }));
    await daemon.stop();
    const historyDir = path.join(daemon.config.dataDir, "history");
    fs.mkdirSync(historyDir, { recursive: true });
    fs.writeFileSync(
      path.join(historyDir, "node.hourly.jsonl"),
      rolled.map((p) => `${JSON.stringify(p)}\n`).join(""),
    );
    await daemon.start();
    const history = await call("GET", "/daemon/stats/history?range=7d");
    expect(history.status).toBe(200);
    expect(history.text).not.toContain("sampledBy");
    expect((history.body as { points: unknown[] }).points).toEqual(
      rolled.map(({ n: _n, sampledBy: _by, min, ...point }) => ({
        ...point,
        min: { cpu: min.cpu, memory: min.memory },
      })),
    );
  });

  it("sends the parts its schemas leave open whole: a definition's run, a task's operations", async () => {
    const echo = echoDefinition();
    const definition = echoDefinition({
      run: {
        ...echo.run,
        pre: [{ type: "writefile", target: "motd.txt", text: "${motd}" }],
        environmentVars: { GREETING: "${motd}", LANG: "C.UTF-8" },
      },
    });
    expect((await call("PUT", "/daemon/server/abc00004", definition)).status).toBe(200);
    const stored = await call("GET", "/daemon/server/abc00004/definition");
    expect(stored.body).toMatchObject({
      run: definition.run,
      data: definition.data,
      requirements: definition.requirements,
    });
    const operations = [
      { type: "console", message: "hello" },
      { type: "writefile", target: "notes/today.txt", text: "line one\nline two" },
    ];
    const created = await call("POST", "/daemon/server/abc00004/tasks", { name: "Notes", operations });
    expect(created.status).toBe(200);
    const { id } = created.body as { id: string };
    expect((await call("GET", `/daemon/server/abc00004/tasks/${id}`)).body).toMatchObject({
      name: "Notes",
      operations,
    });
  });
});
