import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import { openServerSocket } from "../support/socket-client.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

/** The whole life of a server through the panel's API, on whichever node it lives. */
function lifecycle(label: string, nodeOf: () => number, setup: () => { admin: Client; owner: Client }) {
  describe(`a server on ${label}`, () => {
    const id = label === "the local node" ? "aa11bb22" : "cc33dd44";
    let admin: Client;
    let owner: Client;
    beforeAll(() => {
      ({ admin, owner } = setup());
    });

    it("is created from a definition, recorded with its address, and its users get the default scopes", async () => {
      const created = await admin.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: `Echo ${label}`,
        node: nodeOf(),
        users: ["ownername"],
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body).toEqual({ id });
      const view = await owner.get(`/api/servers/${id}?perms`);
      expect(view.status).toBe(200);
      expect(view.body.server).toMatchObject({
        id,
        name: `Echo ${label}`,
        type: "test",
        port: 25565,
        node: { id: nodeOf() },
      });
      expect(view.body.permissions.scopes).toEqual(
        expect.arrayContaining(["server.view", "server.start", "server.console"]),
      );
      expect(view.body.permissions.scopes).not.toContain("server.admin");
      expect((await owner.get(`/api/servers/${id}`)).body.permissions).toBeNull();
    });

    it("runs: start, console over the socket, a command and its answer, stop by its stop text", async () => {
      const socket = await openServerSocket(owner, id);
      expect((await owner.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
      await waitUntil(async () => socket.consoleText().includes("ready hello on 25565"), 10_000, 50);
      expect((await owner.get(`/api/servers/${id}/status`)).body).toEqual({
        running: true,
        installing: false,
        installed: true,
      });
      const sent = await owner.call("POST", `/api/servers/${id}/console`, {
        raw: "ping",
        headers: { "content-type": "text/plain" },
      });
      expect(sent.status).toBe(204);
      await waitUntil(async () => socket.consoleText().includes("pong ping"), 10_000, 50);
      expect(await consoleText(owner, id)).toContain("pong ping");
      expect((await admin.delete(`/api/servers/${id}`)).body.error.code).toBe("ErrServerRunning");
      expect((await owner.post(`/api/servers/${id}/stop?wait=true`)).status).toBe(204);
      expect((await owner.get(`/api/servers/${id}/status`)).body).toEqual({
        running: false,
        installing: false,
        installed: true,
      });
      await waitUntil(
        async () => socket.frames.some((f) => f.type === "status" && f.data.running === false),
        5000,
        50,
      );
      expect(socket.frames.some((f) => f.type === "status" && f.data.running === true)).toBe(true);
      socket.close();
      const offline = await owner.call("POST", `/api/servers/${id}/console`, { raw: "ping" });
      expect(offline.body.error.code).toBe("ErrServerOffline");
    });

    it("console polling: only output after the given time, and a bad time is refused", async () => {
      const first = await owner.get(`/api/servers/${id}/console?time=0`);
      expect(first.body.epoch).toBeGreaterThan(1e15);
      const later = await owner.get(`/api/servers/${id}/console?time=${first.body.epoch}`);
      expect(later.body.logs).toBe("");
      expect((await owner.get(`/api/servers/${id}/console?time=abc`)).body.error.code).toBe(
        "ErrInvalidUnixTime",
      );
    });

    it("flags, variables, name and definition follow their scopes", async () => {
      expect((await owner.get(`/api/servers/${id}/flags`)).status).toBe(403); // server.flags.view is not a default scope
      expect((await owner.post(`/api/servers/${id}/flags`, { autoRestartOnCrash: true })).status).toBe(204);
      expect((await admin.get(`/api/servers/${id}/flags`)).body.autoRestartOnCrash).toBe(true);

      expect(Object.keys((await owner.get(`/api/servers/${id}/data`)).body.data)).toEqual(["motd"]);
      expect(Object.keys((await admin.get(`/api/servers/${id}/data`)).body.data).sort()).toEqual([
        "motd",
        "port",
        "secret",
      ]);
      expect((await owner.post(`/api/servers/${id}/data`, { data: { motd: "hi" } })).status).toBe(204);
      expect((await owner.post(`/api/servers/${id}/data`, { data: { secret: "x" } })).body.error.code).toBe(
        "ErrVariableNotEditable",
      );
      expect((await owner.put(`/api/servers/${id}/data`, { data: { port: 30000 } })).status).toBe(403);
      expect((await admin.put(`/api/servers/${id}/data`, { data: { port: { value: 30000 } } })).status).toBe(
        204,
      );
      expect((await owner.get(`/api/servers/${id}`)).body.server.port).toBe(30000);
      // The reference's API clients send the flat {name: value} map to both.
      expect((await owner.post(`/api/servers/${id}/data`, { motd: "flat" })).status).toBe(204);
      expect((await owner.get(`/api/servers/${id}/data`)).body.data.motd.value).toBe("flat");
      expect((await owner.post(`/api/servers/${id}/data`, { secret: "x" })).body.error.code).toBe(
        "ErrVariableNotEditable",
      );
      expect(
        (await admin.put(`/api/servers/${id}/data`, { port: 30001, motd: { value: "hi" } })).status,
      ).toBe(204);
      expect((await owner.get(`/api/servers/${id}`)).body.server.port).toBe(30001);

      expect((await owner.put(`/api/servers/${id}/name/Renamed%20server`)).status).toBe(204);
      expect((await owner.get(`/api/servers/${id}`)).body.server.name).toBe("Renamed server");

      expect((await owner.get(`/api/servers/${id}/definition`)).status).toBe(403);
      const definition = (await admin.get(`/api/servers/${id}/definition`)).body;
      expect(definition.data.motd.value).toBe("hi");
      expect((await admin.put(`/api/servers/${id}/definition`, { ...definition, icon: "echo" })).status).toBe(
        204,
      );
      expect((await owner.get(`/api/servers/${id}`)).body.server.icon).toBe("echo");
    });

    it("is deleted by an administrator, not by its user", async () => {
      expect((await owner.delete(`/api/servers/${id}`)).status).toBe(403);
      expect((await admin.delete(`/api/servers/${id}`)).status).toBe(204);
      expect((await admin.get(`/api/servers/${id}`)).status).toBe(404);
      expect((await owner.get(`/api/servers/${id}`)).status).toBe(403);
    });
  });
}

describe("servers API", () => {
  const panel = usePanel();
  let admin: Client;
  let owner: Client;
  let stranger: Client;
  let daemon: DaemonProcess;
  let remoteNodeId = -1;

  beforeAll(async () => {
    admin = await adminClient(panel());
    owner = await registeredClient(panel(), {
      username: "ownername",
      email: "owner@example.com",
      password: "owner-pass-1",
    });
    stranger = new PanelClient(panel().url);
    await stranger.prime();
    expect(
      (
        await stranger.post("/auth/register", {
          username: "stranger",
          email: "s@example.com",
          password: "stranger-1",
        })
      ).status,
    ).toBe(200);
    ({ nodeId: remoteNodeId, daemon } = await addRemoteNode(admin, "remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  lifecycle(
    "the local node",
    () => 0,
    () => ({ admin, owner }),
  );
  lifecycle(
    "a remote node",
    () => remoteNodeId,
    () => ({ admin, owner }),
  );

  describe("listing and refusals", () => {
    beforeAll(async () => {
      for (const [id, name] of [
        ["11111111", "Alpha world"],
        ["22222222", "Beta world"],
        ["33333333", "gamma_test"],
      ]) {
        const res = await admin.put(`/api/servers/${id}`, {
          ...echoDefinition(),
          name,
          node: 0,
          users: id === "11111111" ? ["ownername"] : [],
        });
        expect(res.status, res.text).toBe(200);
      }
    });

    it("lists servers by name with paging; users see only theirs", async () => {
      const all = await admin.get("/api/servers?limit=2&page=1");
      expect(all.body.paging).toEqual({ page: 1, pageSize: 2, maxSize: 100, total: 3 });
      expect(all.body.servers.map((s: { name: string }) => s.name)).toEqual(["Alpha world", "Beta world"]);
      expect((await admin.get("/api/servers?limit=500")).body.paging.pageSize).toBe(100);
      expect((await admin.get("/api/servers?name=*WORLD*")).body.paging.total).toBe(2);
      expect(
        (await admin.get("/api/servers?name=_")).body.servers.map((s: { name: string }) => s.name),
      ).toEqual(["gamma_test"]);
      const mine = await owner.get("/api/servers");
      expect(mine.body.servers.map((s: { id: string }) => s.id)).toEqual(["11111111"]);
      expect(mine.body.servers[0].canGetStatus).toBe(true);
      expect((await stranger.get("/api/servers")).body.paging.total).toBe(0);
    });

    it("refuses others' servers, bad ids, unknown nodes and users, and missing scopes", async () => {
      expect((await stranger.get("/api/servers/11111111")).status).toBe(403);
      expect((await stranger.post("/api/servers/11111111/start")).status).toBe(403);
      expect((await owner.put("/api/servers/44444444", { ...echoDefinition(), node: 0 })).status).toBe(403);
      expect((await admin.put("/api/servers/bad%20id", echoDefinition())).status).toBe(400);
      expect((await admin.put("/api/servers/11111111", echoDefinition())).body.error.code).toBe(
        "ErrServerAlreadyExists",
      );
      expect(
        (await admin.put("/api/servers/55555555", { ...echoDefinition(), node: 999 })).body.error.code,
      ).toBe("ErrNodeInvalid");
      expect(
        (await admin.put("/api/servers/55555555", { ...echoDefinition(), users: ["nobody-here"] })).body.error
          .code,
      ).toBe("ErrUserNotFound");
      expect(
        (await admin.put("/api/servers/55555555", { ...echoDefinition(), run: { command: 7 } })).body.error
          .code,
      ).toBe("ErrTemplateInvalid");
      expect((await admin.get("/api/servers")).body.paging.total).toBe(3);
      const anonymous = new PanelClient(panel().url);
      for (const path of ["/api/servers", "/api/servers/11111111", "/api/servers/11111111/console"]) {
        expect((await anonymous.get(path)).status, path).toBe(401);
      }
    });

    it("refuses sockets without a session, for others' servers, and from other origins", async () => {
      await expect(openServerSocket(new PanelClient(panel().url), "11111111")).rejects.toThrow(/401/);
      await expect(openServerSocket(stranger, "11111111")).rejects.toThrow(/403/);
      const foreign = await openServerSocket(owner, "11111111", { origin: "https://evil.example" });
      expect((await foreign.closed).code).toBe(1008);
      expect(foreign.frames).toEqual([]);
    });

    it("gives each socket only the channels its scopes allow", async () => {
      await setServerScopes(panel(), "s@example.com", "22222222", ["server.view", "server.status"]);
      const socket = await openServerSocket(stranger, "22222222");
      // The control: a socket that may have the console. Once it has the server's line, the line
      // went out to every socket; whatever the stranger's got comes before the later stop.
      const control = await openServerSocket(admin, "22222222");
      expect((await admin.post("/api/servers/22222222/start?wait")).status).toBe(204);
      await waitUntil(async () => socket.frames.some((f) => f.type === "status" && f.data.running), 5000, 50);
      await waitUntil(async () => control.consoleText().includes("ready"), 5000, 50);
      control.close();
      expect((await admin.post("/api/servers/22222222/stop?wait")).status).toBe(204);
      await waitUntil(
        async () => socket.frames.some((f) => f.type === "status" && !f.data.running),
        5000,
        50,
      );
      expect(await consoleText(admin, "22222222")).toContain("ready");
      expect(socket.frames.map((f) => f.type)).not.toContain("console");
      expect((await stranger.get("/api/servers/22222222/console")).status).toBe(403);
      socket.close();
    });
  });
});
