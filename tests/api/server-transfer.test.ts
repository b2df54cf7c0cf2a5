import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteNode } from "../../server/link/remote-node.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { rawRequest, upload } from "../support/file-requests.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { runSftp, type SshLogin } from "../support/sftp-client.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { admin, adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/** Where each node keeps a server's folder and backups. */
const folders = (nodeDataDir: string, id: string) => ({
  root: path.join(nodeDataDir, "servers", id),
  backups: path.join(nodeDataDir, "backups", id),
  definition: path.join(nodeDataDir, "servers", `${id}.json`),
  tasks: path.join(nodeDataDir, "servers", `${id}.cron`),
});

describe("moving a server to another node", () => {
  const panel = usePanel();
  let api: PanelClient;
  let daemon: DaemonProcess;
  let remote: number;
  let ownerApi: PanelClient;
  const owner = newUser("mover");
  const localData = () => path.join(panel().dataDir, "node");
  const dataOf = (node: number) => (node === 0 ? localData() : daemon.config.dataDir);

  beforeAll(async () => {
    api = await adminClient(panel());
    ({ nodeId: remote, daemon } = await addRemoteNode(api, "target"));
    ownerApi = await registeredClient(panel(), owner);
  }, 60_000);
  afterAll(async () => {
    await daemon?.destroy();
  });

  const readFile = async (id: string, file: string) => {
    const res = await rawRequest(api, "GET", `/api/servers/${id}/file/${file}`);
    return { status: res.status, text: res.body.toString() };
  };

  it("moves files, backups, users, tasks and OAuth clients local → remote → local", async () => {
    const id = "move0001";
    const made = await api.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      node: 0,
      users: [owner.username],
    });
    expect(made.status, made.text).toBe(200);
    expect((await upload(api, `/api/servers/${id}/file/world/level.dat`, "the world")).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/backup/create?name=before`)).status).toBe(204);
    await waitUntil(
      async () =>
        (await api.get(`/api/servers/${id}/backup`)).body.every?.(
          (b: { state: string }) => b.state === "ready",
        ) ?? false,
      20_000,
      100,
    );
    const backups = (await api.get(`/api/servers/${id}/backup`)).body;
    expect(backups).toHaveLength(1);
    const task = await api.post(`/api/servers/${id}/tasks`, {
      name: "Nightly",
      cronSchedule: "0 4 * * *",
      operations: [{ type: "console", message: "tick" }],
    });
    expect(task.status, task.text).toBe(200);
    const client = await api.post(`/api/servers/${id}/oauth2`, { name: "bot", scopes: ["server.status"] });
    expect(client.status, client.text).toBe(200);

    const targets = await api.get(`/api/servers/${id}/transfer`);
    expect(targets.status).toBe(200);
    expect(targets.body.nodes).toEqual([
      expect.objectContaining({ id: remote, name: "target", reachable: true, free: expect.any(Number) }),
    ]);

    for (const [from, to] of [
      [0, remote],
      [remote, 0],
    ]) {
      const socket = await openServerSocket(api, id);
      const moved = await api.post(`/api/servers/${id}/transfer`, { node: to });
      expect(moved.status, moved.text).toBe(204);
      // The server's socket heard the move, to its end.
      await waitUntil(
        async () => socket.frames.some((f) => f.type === "transfer" && f.data.state === "done"),
        5000,
      );
      const heard = socket.frames.filter((f) => f.type === "transfer").map((f) => f.data);
      expect(heard[0]).toMatchObject({ state: "copying", node: to, total: expect.any(Number) });
      expect(heard.at(-1)).toMatchObject({ state: "done", node: to });
      expect(heard.at(-1).received).toBe(heard.at(-1).total);
      socket.close();
      expect((await api.get(`/api/servers/${id}`)).body.server.node.id).toBe(to);
      // The source's copy is gone only now; the target holds everything.
      const there = folders(dataOf(to), id);
      const gone = folders(dataOf(from), id);
      for (const place of Object.values(gone)) expect(fs.existsSync(place), place).toBe(false);
      expect(fs.existsSync(there.definition)).toBe(true);
      expect(fs.existsSync(there.tasks)).toBe(true);
      expect(await readFile(id, "world/level.dat")).toEqual({ status: 200, text: "the world" });
      // No longer held: the node that now owns it takes changes.
      expect((await upload(api, `/api/servers/${id}/file/moved-to-${to}.txt`, "here")).status).toBe(204);
      const after = (await api.get(`/api/servers/${id}/backup`)).body;
      expect(after).toEqual(backups);
      const download = await rawRequest(api, "GET", `/api/servers/${id}/backup/download/${backups[0].id}`);
      expect(download.status).toBe(200);
      expect(download.body.length).toBe(backups[0].size);
      const tasks = (await api.get(`/api/servers/${id}/tasks`)).body.tasks;
      expect(tasks.map((t: { name: string }) => t.name)).toEqual(["Nightly"]);
      const users = (await api.get(`/api/servers/${id}/user`)).body;
      expect(JSON.stringify(users)).toContain(owner.email);
      const clients = (await api.get(`/api/servers/${id}/oauth2`)).body;
      expect(clients.map((c: { client_id: string }) => c.client_id)).toEqual([client.body.client_id]);
      // It runs where it now is.
      expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
      await waitUntil(async () => (await api.get(`/api/servers/${id}/status`)).body.running === true, 10_000);
      expect((await api.post(`/api/servers/${id}/kill`)).status).toBe(204);
      await waitUntil(
        async () => (await api.get(`/api/servers/${id}/status`)).body.running === false,
        10_000,
      );
    }
  }, 120_000);

  it("moves links, modes and owners as they were: a link inside kept, an absolute one made relative, one that leads out left out", async () => {
    const id = "move0006";
    expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    const place = (node: number, name: string) => path.join(folders(dataOf(node), id).root, name);
    const made = (name: string, text: string, mode = 0o644) => {
      fs.mkdirSync(path.dirname(place(0, name)), { recursive: true });
      fs.writeFileSync(place(0, name), text, { mode });
      fs.chmodSync(place(0, name), mode);
    };
    // A plain tree first (the fast archiver's), then one with links it leaves to the other.
    made("run.sh", "#!/bin/sh\n", 0o755);
    made("world/level.dat", "the world");
    fs.symlinkSync("world/level.dat", place(0, "level"));
    const moves: [number, number][] = [
      [0, remote],
      [remote, 0],
    ];
    for (const [round, [from, to]] of moves.entries()) {
      if (round === 1) {
        fs.symlinkSync(place(from, "world"), place(from, "absolute-world"));
        fs.symlinkSync("../../..", place(from, "world/up"));
      }
      const moved = await api.post(`/api/servers/${id}/transfer`, { node: to });
      expect(moved.status, moved.text).toBe(204);
      expect(fs.readlinkSync(place(to, "level"))).toBe("world/level.dat");
      expect(fs.statSync(place(to, "run.sh")).mode & 0o777).toBe(0o755);
      expect(fs.readFileSync(place(to, "world/level.dat"), "utf8")).toBe("the world");
      const rootOwner = fs.statSync(folders(dataOf(to), id).root).uid;
      if (process.getuid?.() === 0) expect(rootOwner).not.toBe(0);
      for (const name of ["run.sh", "world", "world/level.dat"])
        expect(fs.lstatSync(place(to, name)).uid, name).toBe(rootOwner);
      if (round === 1) {
        expect(fs.readlinkSync(place(to, "absolute-world"))).toBe("world");
        expect(fs.existsSync(place(to, "world/up"))).toBe(false);
      }
    }
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
  }, 60_000);

  it("refuses a running server, the node it is on, an unknown node, and anyone but an administrator", async () => {
    const id = "move0002";
    expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    await setServerScopes(panel(), owner.email, id, [
      "server.view",
      "server.start",
      "server.stop",
      "server.files.view",
    ]);
    const user = ownerApi;
    expectError(await user.post(`/api/servers/${id}/transfer`, { node: remote }), 403, "ErrMissingScope");
    expectError(await user.get(`/api/servers/${id}/transfer`), 403, "ErrMissingScope");
    expectError(await api.post(`/api/servers/${id}/transfer`, { node: 0 }), 400, "ErrTransferSameNode");
    expectError(await api.post(`/api/servers/${id}/transfer`, { node: 999 }), 400, "ErrNodeInvalid");
    expect((await api.post(`/api/servers/${id}/transfer`, { node: "x" })).status).toBe(400);

    // The local node's export, served by the panel, opens to the local node's grant only: not to a session.
    expectError(await api.get(`/daemon/transfer/${id}/export`), 403, "ErrTransferGrantInvalid");
    expectError(await api.get(`/daemon/transfer/${id}/export/digest`), 403, "ErrTransferGrantInvalid");

    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await api.get(`/api/servers/${id}/status`)).body.running === true, 10_000);
    expectError(await api.post(`/api/servers/${id}/transfer`, { node: remote }), 409, "ErrServerRunning");
    expect((await api.get(`/api/servers/${id}`)).body.server.node.id).toBe(0);
    expect(fs.existsSync(folders(daemon.config.dataDir, id).root)).toBe(false);
    expect((await api.post(`/api/servers/${id}/kill`)).status).toBe(204);
  }, 60_000);

  /** Writes a file through the API and one with OpenSSH's sftp; answers what each said. */
  const tryWrites = async (id: string, login: SshLogin, name: string) => {
    const answer = await upload(api, `/api/servers/${id}/file/${name}.txt`, "api");
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-transfer-sftp-"));
    try {
      fs.writeFileSync(path.join(work, "up.txt"), "sftp");
      const sftp = await runSftp(login, [`put up.txt ${name}-sftp.txt`, `mkdir ${name}-folder`], {
        cwd: work,
      });
      return { answer, sftp };
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  };
  const expectRefused = async (id: string, login: SshLogin, root: string) => {
    const before = fs.readdirSync(root).sort();
    const { answer, sftp } = await tryWrites(id, login, "held");
    expect(answer.status, answer.body.toString()).toBe(409);
    expect(answer.json?.error).toMatchObject({ code: "ErrServerTransferring", msg: expect.any(String) });
    expect(sftp.code, sftp.stdout + sftp.stderr).not.toBe(0);
    expect(sftp.stderr).toMatch(/Permission denied/);
    expect(fs.readdirSync(root).sort()).toEqual(before);
    // Reads go on.
    expect(await readFile(id, "seen.txt")).toEqual({ status: 200, text: "seen" });
  };
  const expectAccepted = async (id: string, login: SshLogin, root: string) => {
    const { answer, sftp } = await tryWrites(id, login, "after");
    expect(answer.status).toBe(204);
    expect(sftp.code, sftp.stdout + sftp.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, "after-sftp.txt"), "utf8")).toBe("sftp");
  };

  it("while a move holds a server on the local node, the file API and SFTP refuse writes; once the move failed they work again", async () => {
    const id = "move0004";
    expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    expect((await upload(api, `/api/servers/${id}/file/seen.txt`, "seen")).status).toBe(204);
    const root = folders(localData(), id).root;
    const login = { port: panel().sftpPort, user: `${admin.email}#${id}`, password: admin.password };
    const pid = daemon.pid();
    if (!pid) throw new Error("the target daemon is not running");
    // A frozen target: the source holds the server while the panel waits for the pull.
    process.kill(pid, "SIGSTOP");
    const moving = api.post(`/api/servers/${id}/transfer`, { node: remote });
    try {
      try {
        await waitUntil(
          async () => (await upload(api, `/api/servers/${id}/file/seen.txt`, "seen")).status === 409,
          10_000,
          20,
        );
        await expectRefused(id, login, root);
      } finally {
        await daemon.crash();
      }
      expect((await moving).status).toBeGreaterThanOrEqual(500);
      expect((await api.get(`/api/servers/${id}`)).body.server.node.id).toBe(0);
      await expectAccepted(id, login, root);
    } finally {
      await daemon.start();
    }
  }, 60_000);

  it("while a remote node holds a server for a move, the file API and its SFTP refuse writes; once released they work again", async () => {
    const id = "move0005";
    expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: remote })).status).toBe(200);
    expect((await upload(api, `/api/servers/${id}/file/seen.txt`, "seen")).status).toBe(204);
    const root = folders(daemon.config.dataDir, id).root;
    const login = { port: daemon.config.sftp.port, user: `${admin.email}#${id}`, password: admin.password };
    // The node's side of a move, as the panel asks it.
    const node = new RemoteNode({ nodeId: remote, secret: daemon.config.secret, baseUrl: daemon.baseUrl });
    await node.transfers.offer(id);
    try {
      await expectRefused(id, login, root);
    } finally {
      await node.transfers.release(id);
    }
    await expectAccepted(id, login, root);
  }, 60_000);

  it("a target killed midway (kill -9) leaves the server whole and usable on the source", async () => {
    const id = "move0003";
    expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    // Big enough that the copy is still under way when the target dies.
    const big = path.join(folders(localData(), id).root, "big.bin");
    const fd = fs.openSync(big, "w");
    const chunk = Buffer.alloc(8 * 1024 * 1024, 7);
    for (let i = 0; i < 128; i++) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    const serversDir = path.join(daemon.config.dataDir, "servers");
    const staging = () => fs.readdirSync(serversDir).find((n) => n.startsWith(`.${id}.restore-`));

    const socket = await openServerSocket(api, id);
    const moving = api.post(`/api/servers/${id}/transfer`, { node: remote });
    await waitUntil(
      async () => {
        const folder = staging();
        return folder !== undefined && fs.existsSync(path.join(serversDir, folder, "files", "big.bin"));
      },
      30_000,
      5,
    );
    await daemon.crash();
    const answer = await moving;
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(answer.body.error.code).toMatch(/^ErrNode/);
    expect(socket.frames.filter((f) => f.type === "transfer").at(-1)?.data.state).toBe("failed");
    socket.close();

    expect((await api.get(`/api/servers/${id}`)).body.server.node.id).toBe(0);
    expect(fs.statSync(big).size).toBe(128 * chunk.length);
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await api.get(`/api/servers/${id}/status`)).body.running === true, 10_000);
    expect((await api.post(`/api/servers/${id}/kill`)).status).toBe(204);
    await waitUntil(async () => (await api.get(`/api/servers/${id}/status`)).body.running === false, 10_000);

    // The target's partial copy is gone once it is back, and the move then succeeds.
    await daemon.start();
    expect(staging()).toBeUndefined();
    expect(fs.existsSync(path.join(serversDir, id))).toBe(false);
    const again = await api.post(`/api/servers/${id}/transfer`, { node: remote });
    expect(again.status, again.text).toBe(204);
    expect(fs.statSync(path.join(serversDir, id, "big.bin")).size).toBe(128 * chunk.length);
  }, 120_000);
});
