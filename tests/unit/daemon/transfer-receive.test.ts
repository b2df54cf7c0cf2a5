import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import { Header } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transferUpgrade } from "../../../server/contract/node/transfer-wire.ts";
import { systemTarWorks } from "../../../server/daemon/transfers/system-tar.ts";
import { receiveArchive } from "../../../server/daemon/transfers/transfer-receive.ts";
import { fakeSource, inRecords } from "../../support/transfer-source.ts";

type EntryType = "File" | "Directory" | "SymbolicLink" | "Link" | "FIFO" | "CharacterDevice";
interface Entry {
  name: string;
  body?: string;
  type?: EntryType;
  link?: string;
  mode?: number;
}

/** A tar of hand-made entries: what a hostile source (or a server user's folder) could send. */
function tarOf(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? "File";
    const body = Buffer.from(type === "File" ? (entry.body ?? "") : "");
    const block = Buffer.alloc(512);
    new Header({
      path: entry.name,
      mode: entry.mode ?? (type === "Directory" ? 0o755 : 0o644),
      size: body.length,
      mtime: new Date(),
      type,
      linkpath: entry.link,
      devmaj: type === "CharacterDevice" ? 1 : undefined,
      devmin: type === "CharacterDevice" ? 3 : undefined,
    }).encode(block, 0);
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return inRecords(Buffer.concat(blocks));
}

describe("receiving a moved server's archive", () => {
  let served: Buffer = Buffer.alloc(0);
  let source: Awaited<ReturnType<typeof fakeSource>>;
  let url = "";
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-receive-"));
  // What a write that escaped would land on: a folder outside the staging one.
  const outside = path.join(scratch, "outside");

  beforeAll(async () => {
    fs.mkdirSync(outside);
    source = await fakeSource(() => served);
    url = source.url("/daemon/transfer/x/export");
  });
  afterAll(async () => {
    await source.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  let round = 0;
  const receive = async (entries: Entry[], systemTar: boolean) => {
    served = tarOf(entries);
    const staging = path.join(scratch, `staging-${round++}`);
    fs.mkdirSync(staging, { mode: 0o700 });
    const progress = { received: 0 };
    const result = receiveArchive({ url, grant: "g.x" }, staging, progress, async () => undefined, systemTar);
    return { staging, result, progress };
  };

  it("has GNU tar in a sandbox on this machine (the fast path is the one tested first)", () => {
    expect(systemTarWorks()).toBe(true);
  });

  for (const [extractor, systemTar] of [
    ["GNU tar", true],
    ["the JavaScript extractor", false],
  ] as const) {
    describe(`with ${extractor}`, () => {
      /** A pull from `at` into a staging folder of its own. */
      const pullInto = (staging: string, at: string) =>
        receiveArchive({ url: at, grant: "g.x" }, staging, { received: 0 }, async () => undefined, systemTar);

      it("unpacks the three folders and checks the size the source sent", async () => {
        const { staging, result, progress } = await receive(
          [
            { name: "files/", type: "Directory" },
            { name: "files/world/level.dat", body: "the world" },
            { name: "files/start.sh", body: "#!/bin/sh", mode: 0o755 },
            { name: "backups/b1.tar.gz", body: "backup" },
            { name: "meta/server.json", body: "{}" },
          ],
          systemTar,
        );
        expect(await result).toEqual({ bytes: served.length });
        // What the server view shows as received, once all of it has come.
        expect(progress.received).toBe(served.length);
        expect(fs.readFileSync(path.join(staging, "files/world/level.dat"), "utf8")).toBe("the world");
        expect(fs.statSync(path.join(staging, "files/start.sh")).mode & 0o777).toBe(0o755);
        expect(fs.readFileSync(path.join(staging, "backups/b1.tar.gz"), "utf8")).toBe("backup");
      });

      it("keeps links inside, and leaves out FIFOs, set-id bits and links in the node's folders", async () => {
        const { staging, result } = await receive(
          [
            { name: "files/ok.txt", body: "ok", mode: 0o6755 },
            { name: "files/inside", type: "SymbolicLink", link: "ok.txt" },
            { name: "files/pipe", type: "FIFO" },
            { name: "backups/link", type: "SymbolicLink", link: "b" },
            { name: "meta/server.json", body: "{}" },
          ],
          systemTar,
        );
        await result;
        const files = path.join(staging, "files");
        expect(fs.readlinkSync(path.join(files, "inside"))).toBe("ok.txt");
        expect(fs.existsSync(path.join(files, "pipe"))).toBe(false);
        expect(fs.lstatSync(path.join(files, "ok.txt")).mode & 0o7777).toBe(0o755);
        expect(fs.existsSync(path.join(staging, "backups/link"))).toBe(false);
      });

      it(`${systemTar ? "leaves out" : "refuses"} links that lead out of the server folder`, async () => {
        const { staging, result } = await receive(
          [
            { name: "files/ok.txt", body: "ok" },
            { name: "files/sub/up", type: "SymbolicLink", link: "../../.." },
            { name: "files/abs", type: "SymbolicLink", link: "/etc/passwd" },
            { name: "meta/server.json", body: "{}" },
          ],
          systemTar,
        );
        if (!systemTar) {
          await expect(result).rejects.toMatchObject({ code: "ErrIllegalFileAccess" });
          return;
        }
        await result;
        for (const gone of ["sub/up", "abs"])
          expect(fs.existsSync(path.join(staging, "files", gone)), gone).toBe(false);
      });

      it("writes nothing outside its folder through a link, a hard link, `..` or an absolute name", async () => {
        const attempts: Entry[][] = [
          [
            { name: "files/out", type: "SymbolicLink", link: outside },
            { name: "files/out/pwned", body: "through an absolute link" },
          ],
          [
            { name: "files/rel", type: "SymbolicLink", link: "../../outside" },
            { name: "files/rel/pwned", body: "through a relative link" },
          ],
          [{ name: "files/../../outside/pwned", body: "by .." }],
          [{ name: `${outside}/pwned`, body: "by an absolute name" }],
          [{ name: "files/hard", type: "Link", link: "/etc/passwd" }],
          [{ name: "files/hard", type: "Link", link: "../../outside/target" }],
        ];
        fs.writeFileSync(path.join(outside, "target"), "mine");
        for (const entries of attempts) {
          const { staging, result } = await receive(
            [...entries, { name: "meta/server.json", body: "{}" }],
            systemTar,
          );
          // Refused whole, or taken with what leads out left out: either way nothing lands outside.
          const taken = await result.then(
            () => true,
            (error) => {
              expect(error.status, entries[0].name).toBeLessThan(500);
              return false;
            },
          );
          expect(fs.readdirSync(outside), entries[0].name).toEqual(["target"]);
          // A refused pull's staging folder is removed by the caller, whatever it holds.
          if (!taken) continue;
          const hard = path.join(staging, "files/hard");
          if (fs.existsSync(hard)) {
            expect(fs.statSync(hard).ino).not.toBe(fs.statSync("/etc/passwd").ino);
            expect(fs.statSync(hard).ino).not.toBe(fs.statSync(path.join(outside, "target")).ino);
          }
          for (const link of ["files/out", "files/rel"]) {
            const at = path.join(staging, link);
            if (fs.existsSync(at)) expect(fs.lstatSync(at).isSymbolicLink(), link).toBe(false);
          }
        }
      });

      it("refuses a device, and says so", async () => {
        const { result } = await receive(
          [
            { name: "files/tty", type: "CharacterDevice" },
            { name: "meta/server.json", body: "{}" },
          ],
          systemTar,
        );
        if (systemTar) await expect(result).rejects.toMatchObject({ code: "ErrIllegalFileAccess" });
        // The JavaScript extractor reads past it.
        else await result;
      });

      it("says why a source refused, and unpacks nothing", async () => {
        const staging = path.join(scratch, `staging-${round++}`);
        fs.mkdirSync(staging);
        const refusing = await fakeSource(() => Buffer.alloc(0), { refuse: "the transfer grant is used" });
        try {
          await expect(pullInto(staging, refusing.url("/x"))).rejects.toMatchObject({
            code: "ErrTransferSource",
            metadata: { reason: "the transfer grant is used" },
          });
          expect(fs.readdirSync(staging)).toEqual([]);
        } finally {
          await refusing.close();
        }
      });

      it('refuses a source that breaks the handshake: the archive before "go", or an answer without end', async () => {
        const hostile = http.createServer();
        let mode: "early" | "endless" = "early";
        hostile.on("upgrade", (_req, socket: Duplex) => {
          socket.on("error", () => {});
          if (mode === "early") {
            socket.end(
              Buffer.concat([
                Buffer.from(
                  `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${transferUpgrade}\r\n\r\n`,
                ),
                tarOf([{ name: "meta/server.json", body: "{}" }]),
              ]),
            );
            return;
          }
          socket.write("HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\n\r\n");
          const junk = Buffer.alloc(16_384, 120);
          const more = () => {
            while (!socket.destroyed && socket.write(junk));
            if (!socket.destroyed) socket.once("drain", more);
          };
          more();
        });
        await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
        try {
          const at = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/x`;
          for (const [which, reason] of [
            ["early", "it sent the archive before it was asked to"],
            ["endless", "its answer is too long"],
          ] as const) {
            mode = which;
            const staging = path.join(scratch, `staging-${round++}`);
            fs.mkdirSync(staging);
            await expect(pullInto(staging, at), which).rejects.toMatchObject({
              code: "ErrTransferSource",
              metadata: { reason },
            });
            expect(fs.readdirSync(staging)).toEqual([]);
          }
        } finally {
          hostile.closeAllConnections();
          await new Promise<void>((resolve) => hostile.close(() => resolve()));
        }
      });

      it("tells a source that stops short from a hostile archive", async () => {
        const whole = tarOf([
          { name: "files/big", body: "x".repeat(100_000) },
          { name: "meta/server.json", body: "{}" },
        ]);
        const staging = path.join(scratch, `staging-${round++}`);
        fs.mkdirSync(staging);
        const short = await fakeSource(() => whole, { cutAfter: 20_000 });
        try {
          const at = short.url("/x");
          await expect(pullInto(staging, at)).rejects.toMatchObject({ code: "ErrTransferSource" });
        } finally {
          await short.close();
        }
      });
    });
  }
});
