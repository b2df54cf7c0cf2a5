import { Client as SshClient } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { PanelClient } from "../support/http-client.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, registeredClient, usePanel } from "../support/test-panel.ts";

/** An SFTP session held open with ssh2, as a desktop client would hold one. */
function openSftp(
  port: number,
  user: string,
  password: string,
): Promise<{ closed: Promise<void>; end(): void }> {
  return new Promise((resolve, reject) => {
    const client = new SshClient();
    const closed = new Promise<void>((r) => client.once("close", () => r()));
    client.once("error", reject);
    client.once("ready", () =>
      client.sftp((err) => (err ? reject(err) : resolve({ closed, end: () => client.end() }))),
    );
    client.connect({ host: "127.0.0.1", port, username: user, password, readyTimeout: 10_000 });
  });
}

/** Whether a promise settled within a short while (for "still open" checks after a revocation). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
  ]);
}

describe("open connections follow the rights behind them (issue 13 #3, #4)", () => {
  const panel = usePanel({ env: { OUTPOST_MAX_CONNECTIONS_PER_USER: "4" } });
  let admin: PanelClient;
  const serverId = "11fe0001";
  let counter = 0;

  /** A user with console and SFTP rights on the server, signed in. */
  async function member(): Promise<{ api: PanelClient; email: string; password: string }> {
    counter += 1;
    const user = {
      username: `live-user-${counter}`,
      email: `live${counter}@example.com`,
      password: `live-pass-${counter}1`,
    };
    const api = await registeredClient(panel(), user);
    const granted = await admin.put(`/api/servers/${serverId}/user/${user.email}`, {
      // SFTP signs in with server.files.view beside server.sftp (sftp-auth.ts).
      scopes: ["server.view", "server.console", "server.sftp", "server.files.view", "server.status"],
    });
    expect(granted.status, granted.text).toBeLessThan(300);
    return { api, email: user.email, password: user.password };
  }

  beforeAll(async () => {
    admin = await adminClient(panel());
    const created = await admin.put(`/api/servers/${serverId}`, {
      ...echoDefinition(),
      name: "live",
      node: 0,
    });
    expect(created.status, created.text).toBe(200);
  });
  afterAll(async () => {
    await admin?.post(`/api/servers/${serverId}/kill`);
  });

  it("signing out closes the sockets opened with that session, not the user's others", async () => {
    const { api, email, password } = await member();
    const other = new PanelClient(panel().url);
    expect((await other.login(email, password)).status).toBe(200);
    const mine = await openServerSocket(api, serverId);
    const theirs = await openServerSocket(other, serverId);
    expect((await api.post("/auth/logout")).status).toBeLessThan(300);
    expect((await mine.closed).code).toBe(4001);
    expect(await settledWithin(theirs.closed, 500)).toBe(false);
    theirs.close();
  });

  it("a renewed session (reauth) takes its sockets along: signing out afterwards still closes them", async () => {
    const { api } = await member();
    const socket = await openServerSocket(api, serverId);
    expect((await api.post("/auth/reauth")).status).toBe(200);
    expect(await settledWithin(socket.closed, 300)).toBe(false);
    expect((await api.post("/auth/logout")).status).toBeLessThan(300);
    expect(await settledWithin(socket.closed, 5000)).toBe(true);
    expect((await socket.closed).code).toBe(4001);
  });

  it("a password change closes every other session's sockets and SFTP sessions, and keeps its own", async () => {
    const { api, email, password } = await member();
    const other = new PanelClient(panel().url);
    expect((await other.login(email, password)).status).toBe(200);
    const mine = await openServerSocket(api, serverId);
    const theirs = await openServerSocket(other, serverId);
    const sftp = await openSftp(panel().sftpPort, `${email}#${serverId}`, password);
    const changed = await api.put("/api/self", { password, newPassword: `${password}-new` });
    expect(changed.status, changed.text).toBe(204);
    expect((await theirs.closed).code).toBe(4001);
    await sftp.closed;
    expect(await settledWithin(mine.closed, 500)).toBe(false);
    mine.close();
  });

  it("removal from the server closes the user's sockets and SFTP sessions there", async () => {
    const { api, email, password } = await member();
    const socket = await openServerSocket(api, serverId);
    const sftp = await openSftp(panel().sftpPort, `${email}#${serverId}`, password);
    expect((await admin.delete(`/api/servers/${serverId}/user/${email}`)).status).toBe(204);
    expect((await socket.closed).code).toBe(4001);
    await sftp.closed;
    // And they cannot come back.
    await expect(openServerSocket(api, serverId)).rejects.toThrow(/403/);
  });

  it("a socket opened with the old cookie during reauth's grace ends with the renewed session's sign-out", async () => {
    const { api } = await member();
    const oldCookie = api.cookies.get("outpost_auth")!;
    expect((await api.post("/auth/reauth")).status).toBe(200);
    // A page's socket that left with the old cookie while reauth was answering.
    const late = new PanelClient(panel().url);
    late.cookies.set("outpost_auth", oldCookie);
    const socket = await openServerSocket(late, serverId);
    expect((await api.post("/auth/logout")).status).toBeLessThan(300);
    expect((await socket.closed).code).toBe(4001);
  });

  it("deleting the user closes their sockets and SFTP sessions at once", async () => {
    const { api, email, password } = await member();
    const socket = await openServerSocket(api, serverId);
    const sftp = await openSftp(panel().sftpPort, `${email}#${serverId}`, password);
    const id = (await api.get("/api/self")).body.id;
    expect((await admin.delete(`/api/users/${id}`)).status).toBe(204);
    expect((await socket.closed).code).toBe(4001);
    await sftp.closed;
    expect((await api.get("/api/self")).status).toBe(401);
  });

  it("losing a global scope closes what it opened; gaining one closes nothing", async () => {
    counter += 1;
    const user = {
      username: `live-global-${counter}`,
      email: `global${counter}@example.com`,
      password: "global-pass-1",
    };
    const api = await registeredClient(panel(), user);
    const id = (await api.get("/api/self")).body.id;
    const perms = (scopes: string[]) => admin.put(`/api/users/${id}/perms`, { scopes });
    // No row on the server: console and SFTP come from global scopes alone.
    const sftpScopes = ["server.sftp", "server.files.view"];
    expect((await perms(["login", "server.view", "server.console", ...sftpScopes])).status).toBe(204);
    const socket = await openServerSocket(api, serverId);
    const sftp = await openSftp(panel().sftpPort, `${user.email}#${serverId}`, user.password);
    expect(
      (await perms(["login", "server.view", "server.console", ...sftpScopes, "server.status"])).status,
    ).toBe(204);
    expect(await settledWithin(socket.closed, 300)).toBe(false);
    expect((await perms(["login"])).status).toBe(204);
    expect((await socket.closed).code).toBe(4001);
    await sftp.closed;
    await expect(openServerSocket(api, serverId)).rejects.toThrow(/403/);
  });

  it("deleting an OAuth2 client closes the sockets opened with its tokens", async () => {
    // The administrator's own client (who may create one on the server).
    const api = admin;
    const created = await api.post(`/api/servers/${serverId}/oauth2`, {
      name: "console bot",
      scopes: ["server.view", "server.console"],
    });
    expect(created.status, created.text).toBe(200);
    const { client_id, client_secret } = created.body;
    const token = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
      form: { grant_type: "client_credentials", client_id, client_secret },
    });
    expect(token.status, token.text).toBe(200);
    const socket = await openServerSocket(api, serverId, { bearer: token.body.access_token });
    const mine = await openServerSocket(api, serverId);
    expect((await api.delete(`/api/servers/${serverId}/oauth2/${client_id}`)).status).toBe(204);
    expect((await socket.closed).code).toBe(4001);
    expect(await settledWithin(mine.closed, 300)).toBe(false);
    mine.close();
  });

  it("caps one user's open sockets, with a clear error, while others still sign in and connect", async () => {
    const { api } = await member();
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await openServerSocket(api, serverId));
    const url = `${panel().url.replace(/^http/, "ws")}/api/servers/${serverId}/socket`;
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: { cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      socket.on("open", () => reject(new Error("a fifth socket opened")));
      socket.on("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error).toMatchObject({
      code: "ErrTooManyConnections",
      metadata: { limit: 4 },
    });
    // Someone else is not held up by it.
    const { api: someoneElse } = await member();
    const theirs = await openServerSocket(someoneElse, serverId);
    theirs.close();
    // A place given back is free again.
    open[0].close();
    await open[0].closed;
    await waitUntil(async () => {
      try {
        (await openServerSocket(api, serverId)).close();
        return true;
      } catch {
        return false;
      }
    }, 5000);
    for (const socket of open.slice(1)) socket.close();
  });

  // A remote node's SFTP runs in outpost daemon: the panel ends those sessions through server/link.
  describe("SFTP sessions on a remote node", () => {
    const remoteId = "11fe0002";
    let daemon: DaemonProcess | undefined;
    let sftpPort: number;
    let nodeId: number;

    beforeAll(async () => {
      const remote = await addRemoteNode(admin, "live-remote");
      nodeId = remote.nodeId;
      daemon = remote.daemon;
      sftpPort = daemon.config.sftp.port;
      const created = await admin.put(`/api/servers/${remoteId}`, {
        ...echoDefinition(),
        name: "live-remote",
        node: remote.nodeId,
      });
      expect(created.status, created.text).toBe(200);
    });
    afterAll(async () => {
      await daemon?.destroy();
    });

    /** A member of the local server who may also use SFTP on the remote one. */
    async function remoteMember() {
      const who = await member();
      const granted = await admin.put(`/api/servers/${remoteId}/user/${who.email}`, {
        scopes: ["server.view", "server.sftp", "server.files.view"],
      });
      expect(granted.status, granted.text).toBeLessThan(300);
      return { ...who, sftp: () => openSftp(sftpPort, `${who.email}#${remoteId}`, who.password) };
    }

    it("end when the user changes their password", async () => {
      const { api, password, sftp } = await remoteMember();
      const session = await sftp();
      const changed = await api.put("/api/self", { password, newPassword: `${password}-new` });
      expect(changed.status, changed.text).toBe(204);
      expect(await settledWithin(session.closed, 10_000)).toBe(true);
    });

    it("end on that server when the user is removed from it, and not on another", async () => {
      const { email, password, sftp } = await remoteMember();
      const remote = await sftp();
      const local = await openSftp(panel().sftpPort, `${email}#${serverId}`, password);
      expect((await admin.delete(`/api/servers/${remoteId}/user/${email}`)).status).toBe(204);
      expect(await settledWithin(remote.closed, 10_000)).toBe(true);
      expect(await settledWithin(local.closed, 300)).toBe(false);
      local.end();
    });

    it("end once the node can be reached again, when it could not be at the time", async () => {
      const { email, sftp } = await remoteMember();
      const session = await sftp();
      // The panel loses its way to the node (a wrong port); the SFTP client still reaches it.
      const nodePath = `/api/nodes/${nodeId}`;
      const privatePort = (await admin.get(nodePath)).body.privatePort;
      expect((await admin.put(nodePath, { privatePort: await freePort() })).status).toBe(204);
      try {
        expect((await admin.delete(`/api/servers/${remoteId}/user/${email}`)).status).toBe(204);
        expect(await settledWithin(session.closed, 2000)).toBe(false);
      } finally {
        expect((await admin.put(nodePath, { privatePort })).status).toBe(204);
      }
      // Asked again (every 15 s) until the node has done it.
      expect(await settledWithin(session.closed, 45_000)).toBe(true);
    }, 90_000);

    it("end when the user is deleted", async () => {
      const { api, sftp } = await remoteMember();
      const session = await sftp();
      const id = (await api.get("/api/self")).body.id;
      expect((await admin.delete(`/api/users/${id}`)).status).toBe(204);
      expect(await settledWithin(session.closed, 10_000)).toBe(true);
    });
  });
});
