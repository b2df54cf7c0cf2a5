import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { localServerRoot, type RawAnswer, rawRequest, sessionHeaders } from "../support/file-requests.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import { admin, adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

const KiB = 1024;

/** Bytes of every file under a folder (links not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stats = fs.lstatSync(path.join(dir, name));
    if (stats.isFile()) total += stats.size;
  }
  return total;
}

/** An upload whose body the test sends piece by piece, as a slow client would. */
function slowUpload(api: PanelClient, filePath: string) {
  const url = new URL(api.baseUrl);
  const request = http.request({
    host: url.hostname,
    port: url.port,
    method: "PUT",
    path: filePath,
    headers: { ...sessionHeaders(api, "PUT"), "content-type": "application/octet-stream" },
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    request.on("error", reject);
    request.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const text = body.toString();
        const json =
          (res.headers["content-type"] ?? "").includes("json") && text ? JSON.parse(text) : undefined;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json, text });
      });
    });
  });
  return {
    send: (bytes: Buffer) => new Promise<void>((resolve) => request.write(bytes, () => resolve())),
    finish: () => {
      request.end();
      return answer;
    },
  };
}

/** An SFTP channel of ssh2's client, as the admin, on a server of the local node. */
function sftpChannel(port: number, serverId: string): Promise<{ sftp: ssh2.SFTPWrapper; end(): void }> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on("error", reject);
    client.on("ready", () =>
      client.sftp((error, sftp) => (error ? reject(error) : resolve({ sftp, end: () => client.end() }))),
    );
    client.connect({
      host: "127.0.0.1",
      port,
      username: `${admin.email}#${serverId}`,
      password: admin.password,
    });
  });
}

/** Checked often here so the tests are quick; a node checks every 30 s by default. */
const checkOften = { OUTPOST_DISK_CHECK_SECONDS: "0.2" };

describe("disk limit", () => {
  const panel = usePanel({ env: checkOften });
  let api: PanelClient;
  let daemon: DaemonProcess;
  let remoteId: number;

  beforeAll(async () => {
    api = await adminClient(panel());
    ({ nodeId: remoteId, daemon } = await addRemoteNode(api, "disk-limited", checkOften));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  /** An echo server on the local node with a disk limit of 1 MiB. */
  const limitedServer = async (id: string) => {
    const made = await api.put(`/api/servers/${id}`, {
      ...echoDefinition({ limits: { diskMiB: 1 } }),
      node: 0,
    });
    expect(made.status).toBe(200);
    return id;
  };

  for (const [label, nodeOf, rootOf] of [
    ["local", () => 0, (id: string) => localServerRoot(panel().dataDir, id)],
    ["remote", () => remoteId, (id: string) => path.join(daemon.config.dataDir, "servers", id)],
  ] as const) {
    it(`stops a ${label} server whose own process writes past its limit, and refuses to start it until files are deleted`, async () => {
      const id = label === "local" ? "d15c0001" : "d15c0011";
      // The game process writes on and on, and does not listen to the stop command.
      const definition = echoDefinition({
        run: {
          command: `sh -c 'echo filling; while :; do head -c 65536 /dev/zero >> fill.bin; sleep 0.02; done'`,
          stop: "stop",
        },
        limits: { diskMiB: 1 },
      });
      expect((await api.put(`/api/servers/${id}`, { ...definition, node: nodeOf() })).status).toBe(200);
      expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
      await waitUntil(
        async () => (await api.get(`/api/servers/${id}/status`)).body.running === false,
        20_000,
        100,
      );
      const text = await consoleText(api, id);
      expect(text).toContain("Server went over its disk limit (1 MiB): stopping it");
      // Told to stop, it went on writing: a later check found it still over and killed it.
      expect(text).toContain("Server is still over its disk limit (1 MiB), killing it");
      const root = rootOf(id);
      const written = fs.statSync(path.join(root, "fill.bin")).size;
      expect(written).toBeGreaterThan(1024 * KiB);

      // While over its limit it does not start, with the error a write at the limit gets.
      const refused = await api.post(`/api/servers/${id}/start`);
      expect(refused.status).toBe(507);
      expect(refused.body.error.code).toBe("ErrDiskLimit");
      expect(refused.body.error.metadata).toEqual({ limit: 1 });
      expect(await consoleText(api, id)).toContain("Not starting: the server is over its disk limit (1 MiB)");
      expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(false);

      // Files deleted, it starts again at once.
      expect((await api.delete(`/api/servers/${id}/file/fill.bin`)).status).toBe(204);
      expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
      expect((await api.post(`/api/servers/${id}/kill`)).status).toBe(204);
    });
  }

  it("stops install steps that write past the limit", async () => {
    const id = "d15c0005";
    // A definition's install commands are the server's own writing too (a user who may edit it chooses them).
    const definition = echoDefinition({
      install: [
        {
          type: "command",
          commands: [`sh -c 'while :; do head -c 65536 /dev/zero >> fill.bin; sleep 0.02; done'`],
        },
      ],
      limits: { diskMiB: 1 },
    });
    expect((await api.put(`/api/servers/${id}`, { ...definition, node: 0 })).status).toBe(200);
    const installed = await api.post(`/api/servers/${id}/install?wait`);
    expect(installed.status).toBe(507);
    expect(installed.body.error.code).toBe("ErrDiskLimit");
    const text = await consoleText(api, id);
    expect(text).toContain("Server went over its disk limit (1 MiB): stopping its install steps");
    expect(text).toContain("Install failed: the server's disk limit (1 MiB)");
    expect((await api.get(`/api/servers/${id}/status`)).body).toMatchObject({
      running: false,
      installing: false,
    });
    expect(text.split("stopping its install steps")).toHaveLength(2);
    // Over its limit, it is not installed again (each try would add to what the last one left).
    const again = await api.post(`/api/servers/${id}/install?wait`);
    expect(again.status).toBe(507);
    expect(again.body.error.code).toBe("ErrDiskLimit");
    expect(await consoleText(api, id)).toContain("Not installing: the server is over its disk limit (1 MiB)");
    // Not installed: it does not start either.
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(409);
  });

  it("gives concurrent uploads one room: together they stop at the limit, and the one refused leaves nothing", async () => {
    const id = await limitedServer("d15c0002");
    const root = localServerRoot(panel().dataDir, id);
    // Each fits the limit alone; the two together do not.
    const half = Buffer.alloc(350 * KiB, 1);
    const first = slowUpload(api, `/api/servers/${id}/file/first.bin`);
    const second = slowUpload(api, `/api/servers/${id}/file/second.bin`);
    await first.send(half);
    await second.send(half);
    // Both are under way (each has written its first half) before either goes on.
    await waitUntil(async () => bytesUnder(root) >= 2 * half.length, 10_000, 50);
    await first.send(half);
    const refused = await first.finish();
    expect(refused.status, refused.text).toBe(507);
    expect(refused.json.error.code).toBe("ErrDiskLimit");
    await second.send(half);
    const stored = await second.finish();
    expect(stored.status, stored.text).toBe(204);

    // Only the one that fit is there, whole; the refused one left no partial or temporary file.
    expect(fs.readdirSync(root)).toEqual(["second.bin"]);
    expect(fs.statSync(path.join(root, "second.bin")).size).toBe(2 * half.length);
    expect(bytesUnder(root)).toBeLessThanOrEqual(1024 * KiB);
    const listed = (await rawRequest(api, "GET", `/api/servers/${id}/file/`)).json.map(
      (e: { name: string }) => e.name,
    );
    expect(listed).toEqual(["second.bin"]);
  });

  it("stops an archive being made at the limit, in each format, leaving none behind", async () => {
    const id = await limitedServer("d15c0003");
    // Random bytes do not compress: any archive of them passes the room left.
    const filled = await rawRequest(api, "PUT", `/api/servers/${id}/file/data.bin`, {
      body: crypto.randomBytes(600 * KiB),
    });
    expect(filled.status).toBe(204);
    for (const name of ["data.zip", "data.tar", "data.tar.gz"]) {
      const made = await api.post(`/api/servers/${id}/archive/${name}`, ["data.bin"]);
      expect(made.status, `${name}: ${made.text}`).toBe(507);
      expect(made.body.error.code).toBe("ErrDiskLimit");
    }
    expect(fs.readdirSync(localServerRoot(panel().dataDir, id))).toEqual(["data.bin"]);
  });

  it("counts a file held open over SFTP with the uploads that come meanwhile", async () => {
    const id = await limitedServer("d15c0004");
    const root = localServerRoot(panel().dataDir, id);
    const { sftp, end } = await sftpChannel(panel().sftpPort, id);
    try {
      // Opened while the folder is empty: on its own it would have the whole room.
      const handle = await new Promise<Buffer>((resolve, reject) =>
        sftp.open("held.bin", "w", (error, h) => (error ? reject(error) : resolve(h))),
      );
      const uploaded = await rawRequest(api, "PUT", `/api/servers/${id}/file/web.bin`, {
        body: Buffer.alloc(700 * KiB, 3),
      });
      expect(uploaded.status).toBe(204);
      // Then it writes as much again through the open file: stopped where the two reach the limit.
      const chunk = Buffer.alloc(32 * KiB, 4);
      let refused: Error | undefined;
      for (let offset = 0; offset < 700 * KiB && !refused; offset += chunk.length) {
        await new Promise<void>((resolve) =>
          sftp.write(handle, chunk, 0, chunk.length, offset, (error) => {
            refused = error ?? undefined;
            resolve();
          }),
        );
      }
      expect(refused?.message).toContain("disk limit (1 MiB)");
      await new Promise<void>((resolve) => sftp.close(handle, () => resolve()));
      expect(bytesUnder(root)).toBeLessThanOrEqual(1024 * KiB);
    } finally {
      end();
    }
  });

  it("holds folders made over SFTP and by the file manager to the limit", async () => {
    const id = await limitedServer("d15c0006");
    const { sftp, end } = await sftpChannel(panel().sftpPort, id);
    try {
      // A folder takes 4 KiB: 1 MiB holds fewer than 256 of them.
      let refused: Error | undefined;
      let made = 0;
      while (!refused && made < 300) {
        refused = await new Promise<Error | undefined>((resolve) =>
          sftp.mkdir(`d${made}`, (error) => resolve(error ?? undefined)),
        );
        if (!refused) made++;
      }
      expect(refused?.message).toContain("disk limit (1 MiB)");
      expect(made).toBeLessThan(256);
    } finally {
      end();
    }
    const more = await api.put(`/api/servers/${id}/file/more/folders?folder`);
    expect(more.status).toBe(507);
  });
});
