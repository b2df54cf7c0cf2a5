import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectNoInternals } from "../support/expect-api.ts";
import { localServerRoot, type RawAnswer, rawRequest, treeOf, upload } from "../support/file-requests.ts";
import type { Answer } from "../support/http-client.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient as Client, usePanel } from "../support/test-panel.ts";
import { rawTar, tarGz, zipOf } from "../unit/daemon/install/support.ts";

/**
 * Attempts to leave a server's folder over HTTP (issue 5, "One sandbox"):
 * every one is refused with 400 ErrIllegalFileAccess, or names a place
 * inside the folder (404 when nothing is there), and nothing outside is
 * ever read, listed, written, moved or removed: not the sibling server's
 * folder, not a folder beside the servers, not /etc.
 */

const siblingSecret = "SIBLING SECRET";
const outsideSecret = "OUTSIDE SECRET";
const escapedName = `outpost-escaped-${process.pid}`;

interface Place {
  api: Client;
  id: string;
  sibling: string;
  root: string;
  siblingRoot: string;
  /** A folder beside the servers' folders on the same node. */
  outside: string;
}

/** Nothing that lies outside the server's folder may appear in an answer. */
function expectNoLeak(res: RawAnswer): void {
  expect(res.text).not.toContain(siblingSecret);
  expect(res.text).not.toContain(outsideSecret);
  expect(res.text).not.toMatch(/root:[^:]*:0:0:/);
  expect(res.text).not.toContain("outside-only.txt");
}

function expectRefused(res: RawAnswer | Answer, label = ""): void {
  const body = "json" in res ? res.json : res.body;
  expect(res.status, `${label} ${res.text}`).toBe(400);
  // A NUL anywhere in a path is refused by the generic guard before any route runs.
  const code = label.includes("%00") ? "ErrFieldMustBePrintable" : "ErrIllegalFileAccess";
  expect((body as any)?.error?.code, `${label} ${res.text}`).toBe(code);
  expectNoInternals(res as Answer);
  if ("json" in res) expectNoLeak(res);
}

/**
 * Request paths (as written on the wire after `.../file/`) and what they
 * name: null when they try to leave (refused), else the place inside the
 * root their text names. SIB stands for the sibling server's id.
 */
const traversals: [raw: string, inside: string | null][] = [
  ["../SIB/secret.txt", null],
  ["sub/../../SIB/secret.txt", null],
  ["../../../../../../../../../../etc/passwd", null],
  ["..%2fSIB%2fsecret.txt", null],
  ["..%2FSIB%2Fsecret.txt", null],
  ["%2e%2e/SIB/secret.txt", null],
  [".%2e/SIB/secret.txt", null],
  ["%2E%2E%2FSIB%2Fsecret.txt", null],
  ["%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", null],
  ["sub%2f..%2f..%2fSIB%2fsecret.txt", null],
  ["secret.txt%00", null],
  ["..%00/SIB/secret.txt", null],
  ["mine.txt%00.png", null],
  // Decoded once only: a double-encoded `..` stays the literal text `%2e%2e`.
  ["%252e%252e%252fSIB%252fsecret.txt", "%2e%2e%2fSIB%2fsecret.txt"],
  ["%252e%252e/SIB/secret.txt", "%2e%2e/SIB/secret.txt"],
  ["..%252f..%252fSIB", "..%2f..%2fSIB"],
  // Leading slashes are the server's root, not the node's.
  ["/etc/passwd", "etc/passwd"],
  ["%2Fetc%2Fpasswd", "etc/passwd"],
  ["///SIB/secret.txt", "SIB/secret.txt"],
  // A backslash is part of a name on Linux, not a separator.
  ["..%5C..%5CSIB%5Csecret.txt", "..\\..\\SIB\\secret.txt"],
  ["..\\SIB\\secret.txt", "..\\SIB\\secret.txt"],
];

function escapeCorpus(label: string, place: () => Place) {
  describe(`escapes from a server on ${label}`, () => {
    let p: Place;
    let base: string;
    const wire = (raw: string) => raw.replaceAll("SIB", p.sibling);
    const get = (raw: string, headers: Record<string, string> = {}) =>
      rawRequest(p.api, "GET", `${base}/file/${raw}`, { headers });
    const post = (url: string, json?: unknown) =>
      rawRequest(p.api, "POST", url, {
        body: json === undefined ? undefined : JSON.stringify(json),
        headers: json === undefined ? {} : { "content-type": "application/json" },
      });

    beforeAll(() => {
      p = place();
      base = `/api/servers/${p.id}`;
      fs.writeFileSync(path.join(p.siblingRoot, "secret.txt"), siblingSecret);
      fs.mkdirSync(p.outside, { recursive: true });
      fs.writeFileSync(path.join(p.outside, "file.txt"), outsideSecret);
      fs.writeFileSync(path.join(p.outside, "outside-only.txt"), outsideSecret);
      fs.writeFileSync(path.join(p.root, "mine.txt"), "MINE");
      fs.mkdirSync(path.join(p.root, "sub"));
      // Links planted by whatever runs in the folder (the game server itself can make them).
      fs.symlinkSync("/etc", path.join(p.root, "etc-link"));
      fs.symlinkSync(`../${p.sibling}`, path.join(p.root, "sib-rel"));
      fs.symlinkSync(p.siblingRoot, path.join(p.root, "sib-abs"));
      fs.symlinkSync(p.outside, path.join(p.root, "outside-abs"));
      fs.symlinkSync("../../../../../../../../etc/passwd", path.join(p.root, "passwd-link"));
    });

    afterEach(() => {
      expect(treeOf(p.siblingRoot)).toEqual(["secret.txt"]);
      expect(fs.readFileSync(path.join(p.siblingRoot, "secret.txt"), "utf8")).toBe(siblingSecret);
      expect(treeOf(p.outside)).toEqual(["file.txt", "outside-only.txt"]);
      expect(fs.readFileSync(path.join(p.outside, "file.txt"), "utf8")).toBe(outsideSecret);
      expect(fs.existsSync(`/tmp/${escapedName}`)).toBe(false);
      expect(fs.existsSync(`/${escapedName}`)).toBe(false);
      expect(fs.existsSync(`/etc/${escapedName}`)).toBe(false);
      expect(fs.existsSync(path.join(path.dirname(p.root), escapedName))).toBe(false);
    });

    it("reads the server's own file (the control)", async () => {
      const res = await get("mine.txt");
      expect([res.status, res.text]).toEqual([200, "MINE"]);
    });

    it.each(traversals)("GET %s: refused, or a place inside", async (raw, inside) => {
      const res = await get(wire(raw));
      expectNoLeak(res);
      if (inside === null) expectRefused(res, raw);
      else expect([res.status, res.json?.error?.code], raw).toEqual([404, "ErrFileNotFound"]);
    });

    it.each(traversals)(
      "PUT, PUT ?folder, POST (move) and DELETE %s: refused, or acting inside",
      async (raw, inside) => {
        const url = `${base}/file/${wire(raw)}`;
        const put = await upload(p.api, url, "written");
        if (inside === null) {
          expectRefused(put, raw);
          expectRefused(await rawRequest(p.api, "PUT", `${url}?folder=true`), raw);
          expectRefused(await post(url, { action: "move", to: "moved-here" }), raw);
          expectRefused(await rawRequest(p.api, "DELETE", url), raw);
          return;
        }
        const placed = path.join(p.root, wire(inside));
        expect(put.status, put.text).toBe(204);
        expect(fs.readFileSync(placed, "utf8")).toBe("written");
        // A folder cannot be made where the file now is.
        const folder = await rawRequest(p.api, "PUT", `${url}?folder=true`);
        expect([folder.status, folder.json?.error?.code]).toEqual([400, "ErrFileExists"]);
        expect((await post(url, { action: "move", to: "moved-here" })).status).toBe(204);
        expect(fs.readFileSync(path.join(p.root, "moved-here"), "utf8")).toBe("written");
        expect((await post(`${base}/file/moved-here`, { action: "move", to: wire(inside) })).status).toBe(
          204,
        );
        expect((await rawRequest(p.api, "DELETE", url)).status).toBe(204);
        expect(fs.existsSync(placed)).toBe(false);
        fs.rmSync(path.join(p.root, wire(inside).split("/")[0]), { recursive: true, force: true });
      },
    );

    it("refuses move destinations that leave (a JSON field: its text is taken as it is)", async () => {
      for (const to of ["../SIB/moved.txt", "/../SIB/moved.txt", "sub/../../SIB/moved.txt", "a\u0000b"]) {
        const res = await post(`${base}/file/mine.txt`, { action: "move", to: wire(to) });
        expect(res.status, to).toBe(400);
        expectNoLeak(res);
      }
      for (const to of ["../SIB/moved.txt", "/../SIB/moved.txt", "sub/../../SIB/moved.txt"]) {
        expectRefused(await post(`${base}/file/mine.txt`, { action: "move", to: wire(to) }), to);
      }
      expect(fs.readFileSync(path.join(p.root, "mine.txt"), "utf8")).toBe("MINE");
    });

    it("refuses malformed escapes (overlong UTF-8, a bare %) without reading anything", async () => {
      for (const raw of ["%c0%ae%c0%ae/SIB/secret.txt", "%zz", "%e0%80%ae%e0%80%ae/SIB"]) {
        const res = await get(wire(raw));
        expect(res.status, raw).toBe(400);
        // In the API's envelope, whether the router or the sandbox refused it.
        expect(["ErrBadUrl", "ErrIllegalFileAccess"], raw).toContain(res.json?.error?.code);
        expectNoLeak(res);
      }
    });

    it("never follows a planted link out: to /etc, to the sibling (relative and absolute), to a folder beside", async () => {
      for (const raw of [
        "etc-link/passwd",
        "etc-link",
        "etc-link/",
        "passwd-link",
        "sib-rel/secret.txt",
        "sib-rel",
        "sib-abs/secret.txt",
        "sib-abs",
        "outside-abs/file.txt",
        "outside-abs",
      ]) {
        expectRefused(await get(raw), `GET ${raw}`);
        expectRefused(await get(raw, { range: "bytes=0-3" }), `GET range ${raw}`);
        expect((await rawRequest(p.api, "HEAD", `${base}/file/${raw}`)).status, `HEAD ${raw}`).toBe(400);
      }
      const listing = await get("");
      expectNoLeak(listing);
      // Links that lead out are shown, as things that cannot be opened, and nothing of what they lead to.
      expect(listing.json).toEqual(
        expect.arrayContaining([
          { name: "etc-link", isFile: true },
          { name: "sib-rel", isFile: true },
          { name: "outside-abs", isFile: true },
        ]),
      );

      for (const raw of [
        "sib-rel/evil.txt",
        "sib-abs/evil.txt",
        "outside-abs/evil.txt",
        `etc-link/${escapedName}`,
      ]) {
        expectRefused(await upload(p.api, `${base}/file/${raw}`, "evil"), `PUT ${raw}`);
        expectRefused(await rawRequest(p.api, "PUT", `${base}/file/${raw}?folder`), `mkdir ${raw}`);
      }
      expectRefused(await upload(p.api, `${base}/file/outside-abs/file.txt`, "overwritten"), "overwrite");
      expectRefused(await rawRequest(p.api, "PUT", `${base}/file/sib-rel/deeper/still?folder`), "mkdir -p");
      for (const raw of [
        "sib-rel/secret.txt",
        "sib-abs/secret.txt",
        "outside-abs/file.txt",
        "etc-link/passwd",
      ]) {
        expectRefused(await rawRequest(p.api, "DELETE", `${base}/file/${raw}`), `DELETE ${raw}`);
        expectRefused(await post(`${base}/file/${raw}`, { action: "move", to: "stolen.txt" }), `move ${raw}`);
      }
      for (const to of [
        "sib-rel/mine.txt",
        "outside-abs/mine.txt",
        `etc-link/${escapedName}`,
        `../${escapedName}`,
      ]) {
        expectRefused(await post(`${base}/file/mine.txt`, { action: "move", to }), `move to ${to}`);
      }
      expect(fs.readFileSync(path.join(p.root, "mine.txt"), "utf8")).toBe("MINE");
      expect(fs.readlinkSync(path.join(p.root, "sib-rel"))).toBe(`../${p.sibling}`);
    });

    it("removes or renames a planted link itself, never what it points to", async () => {
      fs.symlinkSync(p.siblingRoot, path.join(p.root, "sib-doomed"));
      fs.symlinkSync(p.outside, path.join(p.root, "outside-moved"));
      expect((await rawRequest(p.api, "DELETE", `${base}/file/sib-doomed`)).status).toBe(204);
      expect(fs.existsSync(path.join(p.root, "sib-doomed"))).toBe(false);
      expect(
        (await post(`${base}/file/outside-moved`, { action: "move", to: "sub/renamed-link" })).status,
      ).toBe(204);
      expect(fs.readlinkSync(path.join(p.root, "sub", "renamed-link"))).toBe(p.outside);
      expectRefused(await get("sub/renamed-link/file.txt"));
      fs.unlinkSync(path.join(p.root, "sub", "renamed-link"));
    });

    it("archives nothing from outside, and never writes an archive outside", async () => {
      for (const sources of [
        ["../SIB/secret.txt"],
        ["sib-rel/secret.txt"],
        ["outside-abs/file.txt"],
        ["etc-link/passwd"],
        ["mine.txt", "../SIB"],
      ]) {
        const res = await post(`${base}/archive/stolen.zip`, sources.map(wire));
        expectRefused(res, sources.join());
        expect(fs.existsSync(path.join(p.root, "stolen.zip"))).toBe(false);
      }
      for (const destination of [
        `..%2f${escapedName}.zip`,
        `sib-rel/${escapedName}.zip`,
        `outside-abs/${escapedName}.zip`,
        `etc-link/${escapedName}.tar`,
      ]) {
        expectRefused(await post(`${base}/archive/${destination}`, ["mine.txt"]), destination);
      }
      // A source that names the outside by its text stays inside (and is missing there).
      expect((await post(`${base}/archive/abs.zip`, ["/etc/passwd"])).status).toBe(404);
      // A link in the sources is stored as a link: what it points to is not read.
      expect(
        (await post(`${base}/archive/links.tar`, ["sib-abs", "outside-abs", "etc-link", "mine.txt"])).status,
      ).toBe(204);
      const archive = await get("links.tar");
      expect(archive.status).toBe(200);
      expect(archive.text).toContain("MINE");
      expectNoLeak(archive);
      expect((await rawRequest(p.api, "DELETE", `${base}/file/links.tar`)).status).toBe(204);
    });

    it("never extracts into a folder outside", async () => {
      expect((await post(`${base}/archive/ok.zip`, ["mine.txt"])).status).toBe(204);
      for (const destination of [
        `../${p.sibling}`,
        "sib-rel",
        "sib-abs/deeper",
        "outside-abs",
        "etc-link",
        "sub/../../x",
      ]) {
        const res = await post(`${base}/extract/ok.zip?destination=${encodeURIComponent(destination)}`);
        expectRefused(res, destination);
      }
      expectRefused(await post(`${base}/extract/..%2f${p.sibling}%2fsecret.txt`), "source outside");
      expectRefused(await post(`${base}/extract/sib-rel/secret.zip`), "source through a link");
      // An absolute destination is read from the root.
      expect((await post(`${base}/extract/ok.zip?destination=%2Fabs-dest`)).status).toBe(204);
      expect(fs.readFileSync(path.join(p.root, "abs-dest", "mine.txt"), "utf8")).toBe("MINE");
    });

    describe("archives made to escape are refused on extract", () => {
      const tarCases: [string, Parameters<typeof rawTar>[0]][] = [
        ["a ../ name into the sibling", [{ path: "../SIB/evil.txt", body: "x" }]],
        ["a name that climbs after going down", [{ path: "a/b/../../../SIB/evil.txt", body: "x" }]],
        ["an absolute name", [{ path: `/${escapedName}`, body: "x" }]],
        ["a symlink to /etc", [{ path: "etc2", type: "SymbolicLink", linkpath: "/etc" }]],
        [
          "a symlink to the sibling, then a file through it",
          [
            { path: "sib2", type: "SymbolicLink", linkpath: "../SIB" },
            { path: "sib2/evil.txt", body: "x" },
          ],
        ],
        ["a file through a link planted before", [{ path: "sib-rel/evil.txt", body: "x" }]],
        ["a hard link to /etc/passwd", [{ path: "passwd2", type: "Link", linkpath: "/etc/passwd" }]],
        [
          "a hard link to the sibling's secret",
          [{ path: "secret2", type: "Link", linkpath: "../SIB/secret.txt" }],
        ],
      ];
      const forSibling = (members: Parameters<typeof rawTar>[0], sibling: string) =>
        members.map((m) => ({
          ...m,
          path: m.path.replace("SIB", sibling),
          linkpath: m.linkpath?.replace("SIB", sibling),
        }));

      it.each(tarCases)("tar: %s", async (_name, members) => {
        const bytes = rawTar(forSibling(members, p.sibling));
        expect((await upload(p.api, `${base}/file/evil/evil.tar`, bytes)).status).toBe(204);
        expectRefused(await post(`${base}/extract/evil/evil.tar?destination=%2F`));
        const gz = tarGz(forSibling(members, p.sibling));
        expect((await upload(p.api, `${base}/file/evil/evil.tgz`, gz)).status).toBe(204);
        expectRefused(await post(`${base}/extract/evil/evil.tgz?destination=%2F`));
      });

      it("zip: a ../ name, an absolute name, backslashes, symlink entries to /etc and to the sibling", async () => {
        const sibling = p.sibling;
        const zips = [
          await zipOf([{ name: `xx/${sibling}/evil.txt`, body: "x" }], {
            [`xx/${sibling}/evil.txt`]: `../${sibling}/evil.txt`,
          }),
          await zipOf([{ name: `tmp/${escapedName}`, body: "x" }], {
            [`tmp/${escapedName}`]: `/tm/${escapedName}`,
          }),
          await zipOf([{ name: `xx/${sibling}/evil.txt`, body: "x" }], {
            [`xx/${sibling}/evil.txt`]: `..\\${sibling}\\evil.txt`,
          }),
          await zipOf([{ name: "etc3", body: "/etc", mode: 0o120777 }]),
          await zipOf([
            { name: "sib3", body: `../${sibling}`, mode: 0o120777 },
            { name: "sib3/evil.txt", body: "x" },
          ]),
        ];
        for (const [i, bytes] of zips.entries()) {
          expect((await upload(p.api, `${base}/file/evil/evil${i}.zip`, bytes)).status).toBe(204);
          expectRefused(await post(`${base}/extract/evil/evil${i}.zip?destination=%2F`), `zip ${i}`);
        }
        expect(fs.existsSync(path.join(p.root, "etc3"))).toBe(false);
      });
    });

    it("a link swapped in between check and use never hands out what lies outside", async () => {
      // `flip` is always a link, re-pointed atomically between a folder inside and the outside;
      // `swap` is a real folder one moment and a link to the outside the next.
      fs.mkdirSync(path.join(p.root, "race-inside"));
      fs.writeFileSync(path.join(p.root, "race-inside", "file.txt"), "INSIDE");
      fs.mkdirSync(path.join(p.root, "swap-real"));
      fs.writeFileSync(path.join(p.root, "swap-real", "file.txt"), "INSIDE");
      fs.symlinkSync("race-inside", path.join(p.root, "flip"));
      const flipper = spawn(
        process.execPath,
        [
          "-e",
          `const fs = require("fs");
           const [root, outside, ms] = process.argv.slice(1);
           const at = (n) => root + "/" + n;
           const end = Date.now() + Number(ms);
           for (let n = 0; Date.now() < end; n++) {
             try { fs.symlinkSync(n % 2 ? outside : "race-inside", at("flip.tmp")); fs.renameSync(at("flip.tmp"), at("flip")); } catch {}
             if (n % 2 === 0) { try { fs.unlinkSync(at("swap")); } catch {} try { fs.renameSync(at("swap-real"), at("swap")); } catch {} }
             else { try { fs.renameSync(at("swap"), at("swap-real")); } catch {} try { fs.symlinkSync(outside, at("swap")); } catch {} }
           }
           try { fs.unlinkSync(at("swap")); } catch {}
           try { fs.renameSync(at("swap"), at("swap-real")); } catch {}`,
          p.root,
          p.outside,
          "2500",
        ],
        { stdio: "ignore" },
      );
      const exited = new Promise((r) => flipper.once("exit", r));
      const statuses = new Map<number, number>();
      let reads = 0;
      const worker = async (w: number) => {
        for (let i = 0; flipper.exitCode === null; i++) {
          const answers = await Promise.all([
            get("flip/file.txt"),
            get("flip"),
            get("swap/file.txt"),
            get("swap"),
            get("swap/file.txt", { range: "bytes=0-2" }),
            upload(p.api, `${base}/file/flip/new-${w}-${i}.txt`, "new"),
          ]);
          for (const res of answers) {
            reads++;
            expectNoLeak(res);
            expect([200, 204, 206, 400, 404, 409], res.text).toContain(res.status);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          }
        }
      };
      await Promise.all([worker(1), worker(2), worker(3)]);
      await exited;
      // Both outcomes happened: the race was real, and refusals were among its answers.
      expect(reads).toBeGreaterThan(50);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    }, 30_000);
  });
}

describe("the sandbox over HTTP", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteDataDir = "";
  const ids = { local: "e5ca0001", localSibling: "e5ca0002", remote: "e5ca0003", remoteSibling: "e5ca0004" };

  beforeAll(async () => {
    admin = await adminClient(panel());
    const added = await addRemoteNode(admin, "escape-remote");
    daemon = added.daemon;
    remoteDataDir = daemon.config.dataDir;
    for (const [id, node] of [
      [ids.local, 0],
      [ids.localSibling, 0],
      [ids.remote, added.nodeId],
      [ids.remoteSibling, added.nodeId],
    ] as const) {
      const res = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node, users: [] });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  escapeCorpus("the local node", () => ({
    api: admin,
    id: ids.local,
    sibling: ids.localSibling,
    root: localServerRoot(panel().dataDir, ids.local),
    siblingRoot: localServerRoot(panel().dataDir, ids.localSibling),
    outside: path.join(panel().dataDir, "node", "outside"),
  }));
  escapeCorpus("a remote node", () => ({
    api: admin,
    id: ids.remote,
    sibling: ids.remoteSibling,
    root: path.join(remoteDataDir, "servers", ids.remote),
    siblingRoot: path.join(remoteDataDir, "servers", ids.remoteSibling),
    outside: path.join(remoteDataDir, "outside"),
  }));

  it("met no unexpected error on the panel or the node while doing all that", () => {
    expect(panel().logs()).not.toContain('"msg":"unhandled error"');
    expect(daemon?.logs()).not.toContain('"msg":"unhandled error"');
  });
});
