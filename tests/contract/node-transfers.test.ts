import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { Header } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileRead } from "../../server/contract/node/file-wire.ts";
import { signNodeToken } from "../../server/contract/node/node-token.ts";
import { transferExportPath } from "../../server/contract/node/transfer-wire.ts";
import type { RemoteNode } from "../../server/link/remote-node.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";
import { fakeSource, inRecords, readExport } from "../support/transfer-source.ts";

/** A tar of the given entries, as a source node lays one out. */
function tarOf(
  entries: { name: string; body?: string; type?: "File" | "Directory" | "SymbolicLink"; link?: string }[],
) {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? "");
    const block = Buffer.alloc(512);
    new Header({
      path: entry.name,
      mode: 0o644,
      size: entry.type && entry.type !== "File" ? 0 : body.length,
      mtime: new Date(),
      type: entry.type ?? "File",
      linkpath: entry.link,
    }).encode(block, 0);
    blocks.push(block);
    if (!entry.type || entry.type === "File") {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return inRecords(Buffer.concat(blocks));
}

/** A file read's whole text. */
async function textOf(read: FileRead): Promise<string> {
  if (read.kind !== "file") throw new Error("not a file");
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

const definition = (id: string) => JSON.stringify({ ...echoDefinition(), id });

for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeClient contract, transfers: ${name}`, () => {
    let node: NodeUnderTest;
    beforeAll(async () => {
      node = await make();
    });
    afterAll(async () => {
      await node?.close();
    });
    const leftovers = (id: string) =>
      fs
        .readdirSync(path.join(node.dataDir, "servers"))
        .filter((n) => n.includes(id))
        .concat(fs.existsSync(path.join(node.dataDir, "backups", id)) ? ["backups"] : []);

    it("answers its free space", async () => {
      const space = await node.client.transfers.space();
      expect(space.free).toBeGreaterThan(0);
      expect(space.total).toBeGreaterThanOrEqual(space.free);
    });

    it("holds a stopped server for one transfer at a time, and refuses a running one", async () => {
      await node.client.servers.createServer("hold0001", echoDefinition());
      await node.client.files.write("hold0001", "world/region.mca", Readable.from([Buffer.alloc(300_000)]));
      const offer = await node.client.transfers.offer("hold0001");
      expect(offer.grant).toMatch(/\./);
      // About what will go, for the progress: the files at least, not much more.
      expect(offer.bytes).toBeGreaterThanOrEqual(300_000);
      expect(offer.bytes).toBeLessThan(400_000);
      await expect(node.client.transfers.offer("hold0001")).rejects.toMatchObject({
        code: "ErrTransferInProgress",
      });
      // Held: it cannot start while it is being copied.
      await expect(node.client.servers.action("hold0001", "start", false)).rejects.toMatchObject({
        code: "ErrServerRunning",
      });
      await node.client.transfers.release("hold0001");
      await node.client.servers.action("hold0001", "start", false);
      await waitUntil(async () => (await node.client.servers.status("hold0001")).running, 10_000);
      await expect(node.client.transfers.offer("hold0001")).rejects.toMatchObject({
        code: "ErrServerRunning",
      });
      await node.client.servers.action("hold0001", "kill", false);
      await expect(node.client.transfers.offer("nothere1")).rejects.toMatchObject({
        code: "ErrServerNotFound",
      });
    });

    it("refuses every change to a held server's files, definition and tasks; reads go on, and changes work again once released", async () => {
      const id = "hold0002";
      const { files } = node.client;
      await node.client.servers.createServer(id, echoDefinition());
      await files.write(id, "keep.txt", Readable.from(["before"]));
      await files.archive(id, "pack.tar.gz", ["keep.txt"]);
      await node.client.transfers.offer(id);
      const held = { status: 409, code: "ErrServerTransferring" };
      await expect(files.write(id, "keep.txt", Readable.from(["after"]))).rejects.toMatchObject(held);
      await expect(files.write(id, "new/file.txt", Readable.from(["new"]))).rejects.toMatchObject(held);
      await expect(files.makeFolder(id, "folder")).rejects.toMatchObject(held);
      await expect(files.remove(id, "keep.txt")).rejects.toMatchObject(held);
      await expect(files.move(id, "keep.txt", "moved.txt")).rejects.toMatchObject(held);
      await expect(files.archive(id, "other.tar.gz", ["keep.txt"])).rejects.toMatchObject(held);
      await expect(files.extract(id, "pack.tar.gz", "out")).rejects.toMatchObject(held);
      await expect(node.client.servers.replaceDefinition(id, echoDefinition())).rejects.toMatchObject(held);
      await expect(
        node.client.tasks.create(id, { name: "t", cronSchedule: "0 4 * * *", operations: [] }),
      ).rejects.toMatchObject(held);
      // Nothing of it reached the folder, and reading still works.
      const root = path.join(node.dataDir, "servers", id);
      expect(fs.readdirSync(root).sort()).toEqual(["keep.txt", "pack.tar.gz"]);
      expect(await textOf(await files.read(id, "keep.txt"))).toBe("before");

      await node.client.transfers.release(id);
      await files.write(id, "keep.txt", Readable.from(["after"]));
      await files.makeFolder(id, "folder");
      expect(await textOf(await files.read(id, "keep.txt"))).toBe("after");
      await node.client.servers.deleteServer(id);
    });

    it("takes in a server whose archive arrives whole, as large as the source says it sent", async () => {
      const id = "pull0001";
      const archive = tarOf([
        { name: "files/world/level.dat", body: "the world" },
        { name: "meta/server.json", body: definition(id) },
        {
          name: "meta/server.cron",
          body: JSON.stringify({
            tasks: { t1: { name: "Nightly", cronSchedule: "0 4 * * *", operations: [] } },
          }),
        },
        // A run the source was in: the target's tasks record it as cut short when they start.
        {
          name: "meta/server.task-runs",
          body: JSON.stringify({
            runs: {
              t1: [
                {
                  id: 1,
                  trigger: "schedule",
                  started: new Date().toISOString(),
                  finished: null,
                  success: null,
                  message: "",
                  output: "",
                },
              ],
            },
            backups: {},
            nextRunId: 2,
          }),
        },
      ]);
      const source = await fakeSource(() => archive);
      try {
        const receipt = await node.client.transfers.pull(id, {
          url: source.url(transferExportPath(id)),
          grant: "g.x",
        });
        expect(receipt).toEqual({ bytes: archive.length });
      } finally {
        await source.close();
      }
      // Its tasks wait for the panel's switch: until activate() they have not started here.
      const lastRun = () =>
        JSON.parse(fs.readFileSync(path.join(node.dataDir, "servers", `${id}.task-runs`), "utf8")).runs.t1[0];
      // Nothing to wait for: a while in which the pulled tasks must not start (a started one ends
      // the left-over run at once).
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(lastRun().finished).toBeNull();
      await node.client.transfers.activate(id);
      await waitUntil(async () => lastRun().finished !== null, 5000);
      await expect(node.client.transfers.activate("nothere2")).rejects.toMatchObject({
        code: "ErrServerNotFound",
      });
      expect(fs.readFileSync(path.join(node.dataDir, "servers", id, "world", "level.dat"), "utf8")).toBe(
        "the world",
      );
      expect((await node.client.servers.definition(id)).display).toBe("Echo server");
      await expect(
        node.client.transfers.pull(id, { url: "http://127.0.0.1:1/x", grant: "g.x" }),
      ).rejects.toMatchObject({
        code: "ErrServerAlreadyExists",
      });
    });

    it("keeps nothing of an archive whose size is not what the source sent, escapes its folder, or lacks a definition", async () => {
      const cases: [string, Buffer, number | undefined, string][] = [
        [
          "bad00001",
          tarOf([
            { name: "files/a", body: "a" },
            { name: "meta/server.json", body: definition("bad00001") },
          ]),
          1,
          "ErrTransferCorrupt",
        ],
        [
          "bad00002",
          tarOf([
            { name: "files/../../escape.txt", body: "out" },
            { name: "meta/server.json", body: definition("bad00002") },
          ]),
          undefined,
          "",
        ],
        ["bad00003", tarOf([{ name: "files/a", body: "a" }]), undefined, "ErrTransferSource"],
      ];
      for (const [id, archive, sent, code] of cases) {
        const source = await fakeSource(() => archive, { sent });
        try {
          const pulling = node.client.transfers.pull(id, {
            url: source.url(transferExportPath(id)),
            grant: "g.x",
          });
          await expect(pulling).rejects.toMatchObject(code ? { code } : {});
        } finally {
          await source.close();
        }
        expect(leftovers(id), id).toEqual([]);
        expect(fs.existsSync(path.join(node.dataDir, "escape.txt"))).toBe(false);
        expect(fs.existsSync(path.join(node.dataDir, "servers", "escape.txt"))).toBe(false);
      }
    });

    it("cleans a pull from a source that is not there", async () => {
      await expect(
        node.client.transfers.pull("gone0001", {
          url: "http://127.0.0.1:1/daemon/transfer/gone0001/export",
          grant: "g.x",
        }),
      ).rejects.toMatchObject({ code: "ErrTransferSource" });
      expect(leftovers("gone0001")).toEqual([]);
    });
  });
}

describe("a daemon's export answers only its own grant, once", () => {
  let node: NodeUnderTest;
  let base: string;
  beforeAll(async () => {
    node = await nodeImplementations.RemoteNode();
    base = (node.client as RemoteNode).transfers.http.address.baseUrl;
    await node.client.servers.createServer("grant001", echoDefinition());
    await node.client.servers.createServer("grant002", echoDefinition());
  });
  afterAll(async () => {
    await node?.close();
  });

  const digest = (id: string, authorization: string) =>
    fetch(`${base}${transferExportPath(id)}/digest`, { headers: { authorization } });

  it("refuses no grant, a forged one, the panel's token, another server's grant, and a used one", async () => {
    const { grant } = await node.client.transfers.offer("grant001");
    const other = await node.client.transfers.offer("grant002");
    const [body, mac] = grant.split(".");
    const forged = `${Buffer.from(JSON.stringify({ srv: "grant001", exp: 2e9, jti: "x" })).toString("base64url")}.${mac}`;
    const panelToken = signNodeToken(7, "wrong");
    for (const authorization of [
      undefined,
      `Bearer ${forged}`,
      `Bearer ${body}.`,
      `Bearer ${panelToken}`,
      `Bearer ${other.grant}`,
    ]) {
      const res = await readExport(`${base}${transferExportPath("grant001")}`, authorization);
      expect(res.status, authorization).toBe(403);
      expect(JSON.parse(res.body.toString()).error.code).toBe("ErrTransferGrantInvalid");
    }
    // A plain GET is no export.
    expect(
      (
        await fetch(`${base}${transferExportPath("grant001")}`, {
          headers: { authorization: `Bearer ${grant}` },
        })
      ).status,
    ).toBe(404);
    // Before any export under it, the digest says nothing.
    expect((await digest("grant001", `Bearer ${grant}`)).status).toBe(403);
    const first = await readExport(`${base}${transferExportPath("grant001")}`, `Bearer ${grant}`);
    expect(first.status).toBe(101);
    // GNU tar's whole records, the end of the archive in the last.
    expect(first.body.length % 10_240).toBe(0);
    expect(first.body.subarray(-1024).every((byte) => byte === 0)).toBe(true);
    expect((await readExport(`${base}${transferExportPath("grant001")}`, `Bearer ${grant}`)).status).toBe(
      403,
    );
    expect(await (await digest("grant001", `Bearer ${grant}`)).json()).toEqual({ bytes: first.body.length });
    // The grant opens nothing else on the node.
    const res = await fetch(`${base}/daemon/server/grant001/definition`, {
      headers: { authorization: `Bearer ${grant}` },
    });
    expect(res.status).toBe(401);
    await node.client.transfers.release("grant001");
    await node.client.transfers.release("grant002");
  });
});
