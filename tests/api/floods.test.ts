import http from "node:http";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { exportsPerUser } from "../../server/api/activity.ts";
import { consoleFrameRate } from "../../server/api/server-socket.ts";
import { closeFrameFlood } from "../../server/contract/constants.ts";
import { maxRequestsInFlight } from "../../server/daemon/sftp/session.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { sessionHeaders } from "../support/file-requests.ts";
import { withPanelDb } from "../support/panel-db.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { admin, adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

/**
 * Issue 35, "floods cost the flooder", beyond /api/live (live-flood.test.ts): a console socket
 * flooded with frames, an SFTP session pipelining thousands of requests, and a user asking for
 * many exports of the activity log at once are each bounded by a cheap check.
 */
describe("floods cost the flooder", () => {
  const panel = usePanel();
  const id = "f10d0002";
  let api: PanelClient;

  beforeAll(async () => {
    api = await adminClient(panel());
    await createEchoServer(api, id);
  });

  it("closes a console socket that is sent frames faster than a person could (4008)", async () => {
    // A watcher beside the flood, as the browser opens one.
    const socket = await openServerSocket(api, id);
    const url = `${api.baseUrl.replace(/^http/, "ws")}/api/servers/${id}/socket`;
    const flooder = new WebSocket(url, { headers: sessionHeaders(api, "GET") });
    const closed = new Promise<number>((resolve) => flooder.on("close", (code) => resolve(code)));
    await new Promise((resolve) => flooder.once("open", resolve));
    for (let i = 0; i < consoleFrameRate.burst * 20; i++) flooder.send(JSON.stringify({ type: "replay" }));
    expect(await closed).toBe(closeFrameFlood);
    // A socket that sends a few frames stays open.
    const calm = new WebSocket(url, { headers: sessionHeaders(api, "GET") });
    const calmClosed = new Promise<number>((resolve) => calm.on("close", (code) => resolve(code)));
    await new Promise((resolve) => calm.once("open", resolve));
    for (let i = 0; i < consoleFrameRate.burst - 1; i++) calm.send(JSON.stringify({ type: "status" }));
    const stillOpen = await Promise.race([
      calmClosed.then(() => false),
      new Promise((resolve) => setTimeout(() => resolve(true), 500)),
    ]);
    expect(stillOpen).toBe(true);
    calm.close();
    socket.close();
  });

  it("answers an SFTP session's requests beyond its bound at once, and serves the rest", async () => {
    const client = new ssh2.Client();
    const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) => {
      client.on("error", reject);
      client.on("ready", () => client.sftp((error, channel) => (error ? reject(error) : resolve(channel))));
      client.connect({
        host: "127.0.0.1",
        port: panel().sftpPort,
        username: `${admin.email}#${id}`,
        password: admin.password,
      });
    });
    try {
      const count = maxRequestsInFlight * 12;
      const answers = await Promise.all(
        Array.from(
          { length: count },
          () =>
            new Promise<string>((resolve) =>
              sftp.stat("/", (error) => resolve(error ? String(error.message) : "ok")),
            ),
        ),
      );
      const refused = answers.filter((answer) => /requests in flight/.test(answer)).length;
      const served = answers.filter((answer) => answer === "ok").length;
      expect(refused).toBeGreaterThan(0);
      expect(served).toBeGreaterThanOrEqual(maxRequestsInFlight);
      expect(refused + served).toBe(count);
      // Once the flood is answered, the session works as before.
      const again = await new Promise<string>((resolve) =>
        sftp.stat("/", (error) => resolve(error ? error.message : "ok")),
      );
      expect(again).toBe("ok");
    } finally {
      client.end();
    }
  });

  it("streams at most a few exports of the activity log for one user at once", async () => {
    // A log large enough that an export not read by its client stays under way.
    const details = JSON.stringify({ note: "x".repeat(400) });
    await withPanelDb(panel(), async (db) => {
      for (let batch = 0; batch < 40; batch++) {
        const rows = Array.from({ length: 500 }, (_, i) => ({
          at: Date.now() - batch * 1000 - i,
          actor_kind: "user",
          user_id: null,
          actor_name: "flood-filler",
          client_id: null,
          address: "127.0.0.1",
          action: "server.start",
          ok: 1,
          server_id: id,
          subject: "",
          details,
          event_id: null,
        }));
        await db.insertInto("activity").values(rows).execute();
      }
    });
    const url = new URL(api.baseUrl);
    const open = () =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = http.get(
          {
            host: url.hostname,
            port: url.port,
            path: "/api/activity?format=jsonl",
            headers: sessionHeaders(api, "GET"),
          },
          resolve,
        );
        request.on("error", reject);
      });
    const held: http.IncomingMessage[] = [];
    for (let i = 0; i < exportsPerUser; i++) {
      const answer = await open();
      expect(answer.statusCode).toBe(200);
      answer.pause();
      held.push(answer);
    }
    const refused = await open();
    const body = await new Promise<string>((resolve) => {
      let text = "";
      refused.on("data", (chunk) => {
        text += chunk;
      });
      refused.on("end", () => resolve(text));
    });
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(body).error).toMatchObject({ code: "ErrTooManyAttempts" });
    // An export that ends (here: its client goes away) frees its place.
    held[0].destroy();
    let next: http.IncomingMessage | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      next = await open();
      if (next.statusCode === 200) break;
      next.resume();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(next?.statusCode).toBe(200);
    next?.destroy();
    for (const answer of held) answer.destroy();
  });

  afterAll(async () => {
    await api?.delete(`/api/servers/${id}`);
  });
});
