import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOperations } from "../../../../server/daemon/install/index.ts";
import type { Operation } from "../../../../server/templates/index.ts";
import {
  closedPort,
  type FixtureServer,
  installFailure,
  rawTar,
  scratchEachTest,
  serverContext,
  startFixtureServer,
  tarGz,
  tree,
  zipOf,
} from "./support.ts";

let server: FixtureServer;
const s = scratchEachTest();

beforeAll(async () => {
  const big = Buffer.alloc(256 * 1024, 7);
  server = await startFixtureServer({
    "/files/readme.txt": { body: "hello from the fixture server\n" },
    "/files/pack.tar.gz": {
      body: tarGz([
        { path: "pack/", type: "Directory" },
        { path: "pack/bin/start.sh", body: "#!/bin/sh\necho started\n", mode: 0o755 },
        { path: "pack/config/a.cfg", body: "a=1\n" },
        { path: "pack/start-link", type: "SymbolicLink", linkpath: "bin/start.sh" },
        { path: "pack/hard-copy", type: "Link", linkpath: "pack/config/a.cfg" },
      ]),
    },
    "/files/pack.zip": {
      body: await zipOf([
        { name: "zipped/", directory: true },
        { name: "zipped/run.sh", body: "#!/bin/sh\necho zipped\n", mode: 0o100755 },
        { name: "zipped/data/b.txt", body: "b\n" },
      ]),
    },
    "/api/download?id=5": {
      body: "named by header",
      headers: {
        "content-disposition": `attachment; filename*=UTF-8''server%20files.txt; filename="fallback.txt"`,
      },
    },
    "/files/evil-name": {
      body: "x",
      headers: { "content-disposition": 'attachment; filename="../../outside/evil.txt"' },
    },
    "/files/slow.bin": { body: big, chunkDelayMs: 15 },
    "/redirect": (_req, res) => {
      res.writeHead(302, { location: "/files/readme.txt" }).end();
    },
  });
});
afterAll(() => server.close());

const run = (ops: Operation[], extra = {}) =>
  runOperations(ops, serverContext(s.root, { base: server.url }), s.env(extra));
const read = (file: string) => fs.readFileSync(path.join(s.root, file), "utf8");

describe("download", () => {
  it("downloads into the server folder, named by the URL, by Content-Disposition, or by the redirect's target", async () => {
    await run([
      { type: "download", files: ["${base}/files/readme.txt", "${base}/api/download?id=5"] },
      { type: "download", files: ["${base}/redirect"] },
    ]);
    expect(read("readme.txt")).toBe("hello from the fixture server\n");
    expect(read("server files.txt")).toBe("named by header");
    expect(s.text()).toContain(`[DAEMON] Downloading file ${server.url}/files/readme.txt`);
  });

  it("keeps only the last part of a name the server suggests", async () => {
    await run([{ type: "download", files: ["${base}/files/evil-name"] }]);
    expect(read("evil.txt")).toBe("x");
    expect(tree(s.outside)).toEqual(["keep.txt"]);
  });

  it("streams to disk with progress notices", async () => {
    await run([{ type: "download", files: ["${base}/files/slow.bin"] }], { progressIntervalMs: 20 });
    expect(fs.statSync(path.join(s.root, "slow.bin")).size).toBe(256 * 1024);
    const progress = s.text().match(/Downloading .*slow\.bin: [\d.]+ KiB of 256\.0 KiB \(\d+%\)/g) ?? [];
    expect(progress.length).toBeGreaterThan(1);
  });

  it("fails on an HTTP error, naming the URL and status, and leaves no file", async () => {
    const error = await installFailure(run([{ type: "download", files: ["${base}/files/missing.zip"] }]));
    expect(error.message).toBe(`download: ${server.url}/files/missing.zip answered 404 Not Found`);
    expect(error.metadata).toMatchObject({
      operation: "download",
      host: new URL(server.url).host,
      status: 404,
    });
    expect(fs.readdirSync(s.root)).toEqual([]);
  });

  it("fails on an unreachable host, naming it", async () => {
    const port = await closedPort();
    const error = await installFailure(
      run([{ type: "download", files: [`http://127.0.0.1:${port}/x.zip`] }]),
    );
    expect(error.message).toBe(`download: could not reach 127.0.0.1:${port} (ECONNREFUSED)`);
  });
});

describe("download and extract", () => {
  it("unpacks a downloaded tar.gz with its modes, links and hard links", async () => {
    await run([
      { type: "download", files: ["${base}/files/pack.tar.gz"] },
      { type: "extract", source: "pack.tar.gz", destination: "." },
      { type: "command", commands: ["./pack/start-link"] },
    ]);
    expect(read("pack/config/a.cfg")).toBe("a=1\n");
    expect(fs.statSync(path.join(s.root, "pack/bin/start.sh")).mode & 0o777).toBe(0o755);
    expect(fs.readlinkSync(path.join(s.root, "pack/start-link"))).toBe("bin/start.sh");
    expect(fs.statSync(path.join(s.root, "pack/hard-copy")).ino).toBe(
      fs.statSync(path.join(s.root, "pack/config/a.cfg")).ino,
    );
    expect(s.text()).toContain("started");
  });

  it("unpacks a downloaded zip into a destination folder it makes", async () => {
    await run([
      { type: "download", files: ["${base}/files/pack.zip"] },
      { type: "extract", source: "pack.zip", destination: "game" },
      { type: "command", commands: ["./game/zipped/run.sh"] },
    ]);
    expect(read("game/zipped/data/b.txt")).toBe("b\n");
    expect(s.text()).toContain("zipped");
  });

  it("unpacks tar.xz, tar.bz2 and tar.zst through the host's decompressors", async () => {
    const tar = rawTar([{ path: "inner/file.txt", body: "compressed\n" }]);
    fs.writeFileSync(path.join(s.root, "plain.tar"), tar);
    const { execFileSync } = await import("node:child_process");
    for (const [program, suffix] of [
      ["xz", "xz"],
      ["bzip2", "bz2"],
      ["zstd", "zst"],
    ]) {
      fs.writeFileSync(path.join(s.root, `a.tar.${suffix}`), execFileSync(program, ["-c"], { input: tar }));
    }
    await run([
      { type: "extract", source: "plain.tar", destination: "t" },
      { type: "extract", source: "a.tar.xz", destination: "xz" },
      { type: "extract", source: "a.tar.bz2", destination: "bz2" },
      { type: "extract", source: "a.tar.zst", destination: "zst" },
    ]);
    for (const folder of ["t", "xz", "bz2", "zst"])
      expect(read(`${folder}/inner/file.txt`)).toBe("compressed\n");
  });

  it("refuses a file that is not an archive it knows, and a corrupt one", async () => {
    fs.writeFileSync(path.join(s.root, "notes.rar"), "x");
    fs.writeFileSync(path.join(s.root, "broken.tar.gz"), "this is not gzip");
    fs.writeFileSync(path.join(s.root, "broken.zip"), "this is not a zip");
    expect(
      (await installFailure(run([{ type: "extract", source: "notes.rar", destination: "." }]))).message,
    ).toContain("not an archive this node can extract");
    await installFailure(run([{ type: "extract", source: "broken.tar.gz", destination: "x" }]));
    await installFailure(run([{ type: "extract", source: "broken.zip", destination: "y" }]));
  });
});
