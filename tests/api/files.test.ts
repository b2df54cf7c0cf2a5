import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectNoInternals, newUser } from "../support/expect-api.ts";
import {
  localServerRoot,
  type RawAnswer,
  rawRequest,
  sessionHeaders,
  treeOf,
  upload,
  uploadMultipart,
} from "../support/file-requests.ts";
import type { Answer } from "../support/http-client.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function expectEnvelope(res: RawAnswer | Answer, status: number, code: string): void {
  const body = "json" in res ? res.json : res.body;
  expect(res.status, res.text).toBe(status);
  expect((body as any)?.error?.code, res.text).toBe(code);
  expectNoInternals(res as Answer);
}

interface Place {
  api: Client;
  id: string;
  /** The server's folder on the disk of the node it lives on. */
  root: string;
}

/**
 * Every file endpoint through the panel, for a server on the given node: the
 * same behaviour whether the node is the panel's own or a remote daemon.
 */
function fileManager(label: string, place: () => Place) {
  describe(`the file manager on ${label}`, () => {
    let api: Client;
    let id: string;
    let root: string;
    let base: string;
    const get = (p: string, headers: Record<string, string> = {}) =>
      rawRequest(api, "GET", `${base}/file/${p}`, { headers });
    beforeAll(() => {
      ({ api, id, root } = place());
      base = `/api/servers/${id}`;
    });

    it("writes raw bodies, lists folders (`..` first except at the root, folders first, by name) and reads files back", async () => {
      expect((await upload(api, `${base}/file/list/b.txt`, "bee")).status).toBe(204);
      expect((await upload(api, `${base}/file/list/A.json`, '{"not": json', "application/json")).status).toBe(
        204,
      );
      expect((await upload(api, `${base}/file/list/z/inner.txt`, "in", "text/plain")).status).toBe(204);
      expect((await upload(api, `${base}/file/list/c`, "no extension")).status).toBe(204);
      fs.symlinkSync("z", path.join(root, "list", "link-to-z"));
      fs.symlinkSync("b.txt", path.join(root, "list", "link-to-b"));

      const before = Math.floor(Date.now() / 1000) - 60;
      const listing = await get("list");
      expect(listing.status).toBe(200);
      expect(listing.headers["content-disposition"]).toBeUndefined();
      const names = listing.json.map((e: { name: string }) => e.name);
      expect(names).toEqual(["..", "link-to-z", "z", "A.json", "b.txt", "c", "link-to-b"]);
      expect(listing.json[0]).toEqual({ name: "..", isFile: false });
      expect(listing.json[1]).toEqual({ name: "link-to-z", isFile: false });
      expect(listing.json[2]).toEqual({ name: "z", isFile: false });
      expect(listing.json[6]).toEqual({ name: "link-to-b", isFile: true });
      const json = listing.json[3];
      expect(json).toMatchObject({ name: "A.json", isFile: true, size: 12, extension: ".json" });
      expect(json.modifyTime).toBeGreaterThan(before);
      expect(json.modifyTime).toBeLessThan(before + 3600);
      expect(listing.json[5]).toEqual({ name: "c", isFile: true, size: 12, modifyTime: expect.any(Number) });

      const top = await get("");
      expect(top.json.some((e: { name: string }) => e.name === "..")).toBe(false);
      expect(top.json).toContainEqual({ name: "list", isFile: false });
      // Without the trailing slash, and with leading slashes, it is the same root.
      expect((await rawRequest(api, "GET", `${base}/file`)).json).toEqual(top.json);
      expect((await get("//list")).json).toEqual(listing.json);

      const file = await get("list/A.json");
      expect(file.status).toBe(200);
      expect(file.text).toBe('{"not": json');
      expect(file.headers["content-type"]).toBe("application/octet-stream");
      expect(file.headers["content-disposition"]).toBe('attachment; filename="A.json"');
      expect(file.headers["content-length"]).toBe("12");
      expect(file.headers["accept-ranges"]).toBe("bytes");
      expect((await get("list/link-to-b")).text).toBe("bee");
      expect((await get("list/link-to-z/inner.txt")).text).toBe("in");

      expectEnvelope(await get("list/missing.txt"), 404, "ErrFileNotFound");
      expectEnvelope(await get("nowhere/at/all"), 404, "ErrFileNotFound");
    });

    it("streams a multi-megabyte file up and down, raw and multipart, byte for byte", async () => {
      const bytes = randomBytes(12 * 1024 * 1024 + 17);
      expect((await upload(api, `${base}/file/big/raw.bin`, bytes)).status).toBe(204);
      const raw = await get("big/raw.bin");
      expect(raw.headers["content-length"]).toBe(String(bytes.length));
      expect(sha256(raw.body)).toBe(sha256(bytes));
      expect(sha256(fs.readFileSync(path.join(root, "big", "raw.bin")))).toBe(sha256(bytes));

      const other = randomBytes(5 * 1024 * 1024 + 3);
      const multipart = await uploadMultipart(api, `${base}/file/big/form.bin`, other);
      expect(multipart.status, multipart.text).toBe(204);
      expect(sha256((await get("big/form.bin")).body)).toBe(sha256(other));

      // The misspelt type the reference's client once sent is read as multipart too.
      const misspelt = await uploadMultipart(api, `${base}/file/big/misspelt.bin`, "small", (type) =>
        type.replace("multipart/form-data", "multipart/formdata"),
      );
      expect(misspelt.status, misspelt.text).toBe(204);
      expect((await get("big/misspelt.bin")).text).toBe("small");

      // An upload replaces a file whole, and an empty body makes an empty file.
      expect((await upload(api, `${base}/file/big/raw.bin`, "short")).status).toBe(204);
      expect((await get("big/raw.bin")).text).toBe("short");
      expect((await upload(api, `${base}/file/big/empty.bin`, "")).status).toBe(204);
      expect((await get("big/empty.bin")).headers["content-length"]).toBe("0");
      expect(treeOf(path.join(root, "big")).filter((n) => n.startsWith(".outpost-upload-"))).toEqual([]);
    });

    it("refuses a multipart form without a file field, and an upload onto a folder", async () => {
      const form = new FormData();
      form.append("other", "value");
      const encoded = new Response(form);
      const res = await rawRequest(api, "PUT", `${base}/file/form/none.bin`, {
        body: Buffer.from(await encoded.arrayBuffer()),
        headers: { "content-type": encoded.headers.get("content-type") ?? "" },
      });
      expectEnvelope(res, 400, "ErrFieldRequired");
      // A field before the file is read past; a file after the first is not written anywhere.
      const both = new FormData();
      both.append("note", "first a field");
      both.append("file", new Blob(["the bytes"]), "a.txt");
      both.append("file", new Blob(["a second file"]), "b.txt");
      const mixed = new Response(both);
      const written = await rawRequest(api, "PUT", `${base}/file/form/mixed.txt`, {
        body: Buffer.from(await mixed.arrayBuffer()),
        headers: { "content-type": mixed.headers.get("content-type") ?? "" },
      });
      expect(written.status, written.text).toBe(204);
      expect((await get("form/mixed.txt")).text).toBe("the bytes");
      const empty = await rawRequest(api, "PUT", `${base}/file/form/empty.bin`, {
        body: "",
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
      expectEnvelope(empty, 400, "ErrFieldRequired");
      expect((await upload(api, `${base}/file/form/folder/x.txt`, "x")).status).toBe(204);
      expectEnvelope(await upload(api, `${base}/file/form/folder`, "x"), 400, "ErrFileExists");
      expect((await get("form/folder/x.txt")).text).toBe("x");
    });

    it("compresses a download when asked, but not a range nor a file that is compressed already", async () => {
      const text = Buffer.from("a line of a server log\n".repeat(400));
      await upload(api, `${base}/file/log.txt`, text);
      for (const [encoding, decode] of [
        ["gzip", gunzipSync],
        ["br", brotliDecompressSync],
      ] as const) {
        const packed = await get("log.txt", { "accept-encoding": encoding });
        expect(packed.status).toBe(200);
        expect(packed.headers["content-encoding"]).toBe(encoding);
        expect(packed.headers.vary).toBe("accept-encoding");
        expect(packed.headers["content-disposition"]).toBe('attachment; filename="log.txt"');
        expect(packed.body.length).toBeLessThan(text.length / 10);
        expect(decode(packed.body).equals(text)).toBe(true);
      }
      const part = await get("log.txt", { "accept-encoding": "gzip", range: "bytes=0-2999" });
      expect([part.status, part.headers["content-encoding"], part.body.length]).toEqual([
        206,
        undefined,
        3000,
      ]);

      // A .gz file is bytes the client asked for as they are, not a gzip encoding of something else.
      const archive = gzipSync(text);
      await upload(api, `${base}/file/log.txt.gz`, archive);
      const plain = await get("log.txt.gz", { "accept-encoding": "gzip, br" });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.equals(archive)).toBe(true);
    });

    it("serves ranges: 206 with Content-Range, a suffix, 416 past the end, the whole file otherwise", async () => {
      await upload(api, `${base}/file/range.txt`, "0123456789");
      const part = await get("range.txt", { range: "bytes=2-5" });
      expect(part.status).toBe(206);
      expect(part.text).toBe("2345");
      expect(part.headers["content-range"]).toBe("bytes 2-5/10");
      expect(part.headers["content-length"]).toBe("4");
      expect(part.headers["content-disposition"]).toBe('attachment; filename="range.txt"');

      const open = await get("range.txt", { range: "bytes=7-" });
      expect([open.status, open.text, open.headers["content-range"]]).toEqual([206, "789", "bytes 7-9/10"]);
      const suffix = await get("range.txt", { range: "bytes=-3" });
      expect([suffix.status, suffix.text]).toEqual([206, "789"]);
      const clamped = await get("range.txt", { range: "bytes=8-100" });
      expect([clamped.status, clamped.text, clamped.headers["content-range"]]).toEqual([
        206,
        "89",
        "bytes 8-9/10",
      ]);

      const past = await get("range.txt", { range: "bytes=10-" });
      expectEnvelope(past, 416, "ErrRangeNotSatisfiable");
      expect(past.headers["content-range"]).toBe("bytes */10");

      for (const ignored of ["bytes=0-1,4-5", "bytes=5-2", "lines=1-2", "bytes=x-"]) {
        const whole = await get("range.txt", { range: ignored });
        expect([whole.status, whole.text], ignored).toEqual([200, "0123456789"]);
      }

      const head = await rawRequest(api, "HEAD", `${base}/file/range.txt`);
      expect(head.status).toBe(200);
      expect(head.headers["content-length"]).toBe("10");
      expect(head.headers["content-disposition"]).toBe('attachment; filename="range.txt"');
    });

    it("names a non-ASCII or quoted file with RFC 6266 filename*", async () => {
      const name = 'héllo "wörld".txt';
      expect((await upload(api, `${base}/file/${encodeURIComponent(name)}`, "hi")).status).toBe(204);
      const file = await get(encodeURIComponent(name));
      expect(file.text).toBe("hi");
      expect(file.headers["content-disposition"]).toBe(
        `attachment; filename="h_llo _w_rld_.txt"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      expect(fs.readFileSync(path.join(root, name), "utf8")).toBe("hi");
    });

    it("makes folders with ?folder (200, empty body), parents included", async () => {
      const made = await rawRequest(api, "PUT", `${base}/file/made/deep/er?folder=true`);
      expect(made.status).toBe(200);
      expect(made.text).toBe("");
      expect(fs.statSync(path.join(root, "made", "deep", "er")).isDirectory()).toBe(true);
      expect((await rawRequest(api, "PUT", `${base}/file/made/deep?folder`)).status).toBe(200);
      expect((await get("made/deep")).json).toEqual([
        { name: "..", isFile: false },
        { name: "er", isFile: false },
      ]);
      await upload(api, `${base}/file/made/plain.txt`, "x");
      expectEnvelope(
        await rawRequest(api, "PUT", `${base}/file/made/plain.txt?folder=true`),
        400,
        "ErrFileExists",
      );
    });

    it("moves and renames with POST; refuses an existing destination, an unknown action, a missing source", async () => {
      await upload(api, `${base}/file/mv/a.txt`, "a");
      await upload(api, `${base}/file/mv/b.txt`, "b");
      const move = (from: string, json: unknown) => api.post(`${base}/file/${from}`, json);

      expect((await move("mv/a.txt", { action: "move", to: "mv/renamed.txt" })).status).toBe(204);
      expect((await get("mv/renamed.txt")).text).toBe("a");
      expect((await get("mv/a.txt")).status).toBe(404);
      expect((await move("mv/renamed.txt", { action: "move", to: "/mv2/sub/moved.txt" })).status).toBe(204);
      expect((await get("mv2/sub/moved.txt")).text).toBe("a");
      expect((await move("mv2", { action: "move", to: "mv/folder" })).status).toBe(204);
      expect((await get("mv/folder/sub/moved.txt")).text).toBe("a");

      expectEnvelope(await move("mv/b.txt", { action: "move", to: "mv/folder" }), 400, "ErrFileExists");
      expect((await get("mv/b.txt")).text).toBe("b");
      expectEnvelope(await move("mv/b.txt", { action: "copy", to: "mv/c.txt" }), 400, "ErrFieldInvalid");
      expectEnvelope(await move("mv/b.txt", { action: "move" }), 400, "ErrFieldRequired");
      expectEnvelope(
        await move("mv/nothing.txt", { action: "move", to: "mv/c.txt" }),
        404,
        "ErrFileNotFound",
      );
      expectEnvelope(
        await move("mv/folder", { action: "move", to: "mv/folder/in/itself" }),
        400,
        "ErrGeneric",
      );
      expectEnvelope(await move("", { action: "move", to: "elsewhere" }), 400, "ErrIllegalFileAccess");
      expect((await get("mv/b.txt")).text).toBe("b");
    });

    it("archives to zip, tar and tar.gz, and extracts each back to the same bytes", async () => {
      const blob = randomBytes(300 * 1024);
      await upload(api, `${base}/file/arch/src/one.txt`, "one");
      await upload(api, `${base}/file/arch/src/deep/two.bin`, blob);
      await rawRequest(api, "PUT", `${base}/file/arch/src/empty?folder`);
      await upload(api, `${base}/file/arch/loose.txt`, "loose");

      for (const name of ["out.zip", "out.tar", "out.tar.gz"]) {
        const made = await api.post(`${base}/archive/arch/${name}`, ["arch/src", "/arch/loose.txt"]);
        expect(made.status, `${name}: ${made.text}`).toBe(204);
        const into = `arch/from-${name.replaceAll(".", "-")}`;
        const extracted = await api.post(
          `${base}/extract/arch/${name}?destination=${encodeURIComponent(into)}`,
        );
        expect(extracted.status, `${name}: ${extracted.text}`).toBe(204);
        expect((await get(`${into}/src/one.txt`)).text).toBe("one");
        expect(sha256((await get(`${into}/src/deep/two.bin`)).body)).toBe(sha256(blob));
        expect((await get(`${into}/loose.txt`)).text).toBe("loose");
        expect((await get(`${into}/src/empty`)).json).toEqual([{ name: "..", isFile: false }]);
      }

      // Without a destination, an archive is extracted beside itself.
      await api.post(`${base}/file/arch/out.tar.gz`, { action: "move", to: "arch/beside/out.tar.gz" });
      expect((await api.post(`${base}/extract/arch/beside/out.tar.gz`)).status).toBe(204);
      expect((await get("arch/beside/src/one.txt")).text).toBe("one");

      expectEnvelope(await api.post(`${base}/archive/arch/none.zip`, []), 400, "ErrFieldRequired");
      expectEnvelope(await api.post(`${base}/archive/arch/out.zip`, ["arch/src"]), 400, "ErrFileExists");
      expectEnvelope(await api.post(`${base}/archive/arch/x.zip`, ["arch/missing"]), 404, "ErrFileNotFound");
      expect((await get("arch/x.zip")).status).toBe(404);
      expectEnvelope(await api.post(`${base}/archive/arch/x.rar`, ["arch/src"]), 400, "ErrGeneric");
      expectEnvelope(await api.post(`${base}/archive/arch/x.zip`, { not: "a list" }), 400, "ErrFieldType");
      expectEnvelope(await api.post(`${base}/extract/arch/missing.zip`), 404, "ErrFileNotFound");
      expectEnvelope(await api.post(`${base}/extract/arch/loose.txt`), 400, "ErrGeneric");
    });

    it("deletes files and whole folders (204), 404 for a missing path, never the root", async () => {
      await upload(api, `${base}/file/del/a/b/c.txt`, "c");
      await upload(api, `${base}/file/del/file.txt`, "f");
      expect((await api.delete(`${base}/file/del/file.txt`)).status).toBe(204);
      expect((await get("del/file.txt")).status).toBe(404);
      expect((await api.delete(`${base}/file/del/a`)).status).toBe(204);
      expect(fs.existsSync(path.join(root, "del", "a"))).toBe(false);
      // The reference answers 500 ErrGeneric here; a missing path is a 404.
      expectEnvelope(await api.delete(`${base}/file/del/a`), 404, "ErrFileNotFound");
      expectEnvelope(await api.delete(`${base}/file/`), 400, "ErrIllegalFileAccess");
      expectEnvelope(await api.delete(`${base}/file//`), 400, "ErrIllegalFileAccess");
      expect(fs.existsSync(root)).toBe(true);
    });

    it("an upload cut off midway leaves the previous file as it was, and no half file", async () => {
      const old = randomBytes(64 * 1024);
      await upload(api, `${base}/file/abort/keep.bin`, old);
      const folder = path.join(root, "abort");
      const request = http.request(`${api.baseUrl}${base}/file/abort/keep.bin`, {
        method: "PUT",
        headers: {
          ...sessionHeaders(api, "PUT"),
          "content-type": "application/octet-stream",
          "content-length": String(32 * 1024 * 1024),
        },
      });
      request.on("error", () => {});
      request.write(randomBytes(4 * 1024 * 1024));
      // The new bytes are being written beside the old file...
      await waitUntil(async () => treeOf(folder).some((n) => n.startsWith(".outpost-upload-")), 10_000, 20);
      request.destroy();
      // ...and are dropped when the sender goes away.
      await waitUntil(async () => treeOf(folder).every((n) => !n.startsWith(".outpost-upload-")), 10_000, 50);
      expect(treeOf(folder)).toEqual(["keep.bin"]);
      expect(sha256((await get("abort/keep.bin")).body)).toBe(sha256(old));
    });

    it("answers 404 ErrServerNotFound for a server that does not exist", async () => {
      // Unknown servers are refused by the scope check for users; an admin reaches the lookup.
      const res = await rawRequest(api, "GET", "/api/servers/00000000/file/");
      expectEnvelope(res, 404, "ErrServerNotFound");
    });
  });
}

describe("files API", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  const localId = "f11e0001";
  const remoteId = "f11e0002";
  let remoteRoot = "";

  beforeAll(async () => {
    admin = await adminClient(panel());
    const local = await admin.put(`/api/servers/${localId}`, {
      ...echoDefinition(),
      name: "Files local",
      node: 0,
      users: [],
    });
    expect(local.status, local.text).toBe(200);
    const added = await addRemoteNode(admin, "files-remote");
    daemon = added.daemon;
    const remote = await admin.put(`/api/servers/${remoteId}`, {
      ...echoDefinition(),
      name: "Files remote",
      node: added.nodeId,
      users: [],
    });
    expect(remote.status, remote.text).toBe(200);
    remoteRoot = path.join(daemon.config.dataDir, "servers", remoteId);
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  fileManager("the local node", () => ({
    api: admin,
    id: localId,
    root: localServerRoot(panel().dataDir, localId),
  }));
  fileManager("a remote node", () => ({ api: admin, id: remoteId, root: remoteRoot }));

  describe("scopes", () => {
    let viewer: Client;
    let stranger: Client;
    const base = `/api/servers/${localId}`;
    beforeAll(async () => {
      const viewerUser = newUser("viewer");
      viewer = await registeredClient(panel(), viewerUser);
      await setServerScopes(panel(), viewerUser.email, localId, ["server.view", "server.files.view"]);
      stranger = await registeredClient(panel(), newUser("stranger"));
      await upload(admin, `${base}/file/scoped/readme.txt`, "read me");
    });

    it("server.files.view reads folders and files, and nothing more", async () => {
      expect((await rawRequest(viewer, "GET", `${base}/file/scoped`)).json).toEqual([
        { name: "..", isFile: false },
        expect.objectContaining({ name: "readme.txt", isFile: true }),
      ]);
      expect((await rawRequest(viewer, "GET", `${base}/file/scoped/readme.txt`)).text).toBe("read me");
      const refused = [
        await upload(viewer, `${base}/file/scoped/readme.txt`, "overwritten"),
        await uploadMultipart(viewer, `${base}/file/scoped/readme.txt`, "overwritten"),
        await rawRequest(viewer, "PUT", `${base}/file/scoped/new?folder=true`),
        await viewer.delete(`${base}/file/scoped/readme.txt`),
        await viewer.post(`${base}/file/scoped/readme.txt`, { action: "move", to: "scoped/moved.txt" }),
        await viewer.post(`${base}/archive/scoped/out.zip`, ["scoped"]),
        await viewer.post(`${base}/extract/scoped/readme.txt`),
      ];
      for (const res of refused) expectEnvelope(res, 403, "ErrMissingScope");
      expect((refused[0] as RawAnswer).json.error.metadata).toEqual({ scope: "server.files.edit" });
      const root = localServerRoot(panel().dataDir, localId);
      expect(treeOf(path.join(root, "scoped"))).toEqual(["readme.txt"]);
      expect(fs.readFileSync(path.join(root, "scoped", "readme.txt"), "utf8")).toBe("read me");
    });

    it("a user without scopes on the server cannot even list it", async () => {
      const res = await rawRequest(stranger, "GET", `${base}/file/scoped`);
      expectEnvelope(res, 403, "ErrMissingScope");
      expect(res.json.error.metadata).toEqual({ scope: "server.files.view" });
      expectEnvelope(
        await rawRequest(stranger, "GET", `${base}/file/scoped/readme.txt`),
        403,
        "ErrMissingScope",
      );
    });

    it("an anonymous caller is asked to log in", async () => {
      const anonymous = new PanelClient(panel().url);
      expectEnvelope(await rawRequest(anonymous, "GET", `${base}/file/`), 401, "ErrTokenInvalid");
      expectEnvelope(await upload(anonymous, `${base}/file/x.txt`, "x"), 401, "ErrTokenInvalid");
    });
  });

  it("keeps the 1 MiB body limit on other routes", async () => {
    const big = JSON.stringify({ value: "x".repeat(2 * 1024 * 1024) });
    const res = await admin.call("PUT", "/api/settings/panel.settings.companyName", {
      raw: big,
      headers: { "content-type": "application/json" },
    });
    expectEnvelope(res, 413, "ErrBodyTooLarge");
  });

  it("met no unexpected error on the panel or the node while doing all that", () => {
    expect(panel().logs()).not.toContain('"msg":"unhandled error"');
    expect(daemon?.logs()).not.toContain('"msg":"unhandled error"');
  });
});
