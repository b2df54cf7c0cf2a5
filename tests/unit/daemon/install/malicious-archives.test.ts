import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runOperations } from "../../../../server/daemon/install/index.ts";
import { ApiError } from "../../../../server/errors.ts";
import { rawTar, scratchEachTest, serverContext, type TarMember, tree, zipOf } from "./support.ts";

/**
 * Archives made to escape: every one must stop the extract step with
 * ErrIllegalFileAccess and leave everything outside the server folder as it
 * was (the `outside` folder beside it, the sibling server, /etc, /tmp).
 */
const s = scratchEachTest();
let sibling: string;
beforeEach(() => {
  sibling = path.join(s.base, "servers", "sibling");
  fs.mkdirSync(sibling);
  fs.writeFileSync(path.join(sibling, "server.properties"), "sibling");
});

async function refusedExtract(file: string, bytes: Buffer, destination = "."): Promise<ApiError> {
  fs.writeFileSync(path.join(s.root, file), bytes);
  const error = await runOperations(
    [{ type: "extract", source: file, destination }],
    serverContext(s.root),
    s.env(),
  ).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("ErrIllegalFileAccess");
  expect((error as ApiError).message).toMatch(/^extract: illegal file access/);
  expect(tree(s.outside)).toEqual(["keep.txt"]);
  expect(fs.readFileSync(path.join(s.outside, "keep.txt"), "utf8")).toBe("untouched");
  expect(tree(sibling)).toEqual(["server.properties"]);
  expect(fs.existsSync("/tmp/outpost-escaped")).toBe(false);
  expect(fs.existsSync("/etc/outpost-escaped")).toBe(false);
  return error as ApiError;
}

const tarCases: [string, TarMember[]][] = [
  ["a ../ name", [{ path: "../outside/evil.txt", body: "x" }]],
  ["a name that climbs after going down", [{ path: "a/b/../../../outside/evil.txt", body: "x" }]],
  ["an absolute name", [{ path: "/tmp/outpost-escaped", body: "x" }]],
  ["a symlink to /etc", [{ path: "etc", type: "SymbolicLink", linkpath: "/etc" }]],
  ["a relative symlink out of the root", [{ path: "up", type: "SymbolicLink", linkpath: "../../outside" }]],
  ["a symlink to the sibling server", [{ path: "sib", type: "SymbolicLink", linkpath: "../sibling" }]],
  [
    "a link chain that leaves through a link to the root",
    [
      { path: "here", type: "SymbolicLink", linkpath: "." },
      { path: "up", type: "SymbolicLink", linkpath: "here/.." },
    ],
  ],
  [
    "a link made through a link that is re-pointed afterwards",
    [
      { path: "d1/d2/f.txt", body: "x" },
      { path: "x", type: "SymbolicLink", linkpath: "d1/d2" },
      // Inside while x leads to d1/d2; once x is re-pointed to "." it would lead two levels above the root.
      { path: "y", type: "SymbolicLink", linkpath: "x/../.." },
      { path: "x", type: "SymbolicLink", linkpath: "." },
    ],
  ],
  ["a hard link to /etc/passwd", [{ path: "passwd", type: "Link", linkpath: "/etc/passwd" }]],
  ["a hard link climbing out", [{ path: "keep", type: "Link", linkpath: "../outside/keep.txt" }]],
];

describe("tar entries that try to leave", () => {
  it.each(tarCases)("refuses %s", async (_name, members) => {
    await refusedExtract("evil.tar", rawTar(members));
  });

  it("refuses writing through a planted link to outside, entry after entry", async () => {
    fs.symlinkSync(s.outside, path.join(s.root, "planted"));
    await refusedExtract("evil.tar", rawTar([{ path: "planted/evil.txt", body: "x" }]));
  });

  it("refuses a ../ entry even into a sub-folder destination that it would not leave the root from", async () => {
    // game/../x is still inside the root, but not inside the destination the template chose.
    await refusedExtract("evil.tar", rawTar([{ path: "../x.txt", body: "x" }]), "game");
    expect(fs.existsSync(path.join(s.root, "x.txt"))).toBe(false);
  });
});

describe("zip entries that try to leave", () => {
  it("refuses a ../ name", async () => {
    const bytes = await zipOf([{ name: "xx/outside/evil.txt", body: "x" }], {
      "xx/outside/evil.txt": "../outside/evil.txt",
    });
    await refusedExtract("evil.zip", bytes);
  });

  it("refuses an absolute name", async () => {
    const bytes = await zipOf([{ name: "tmp/outpost-escaped", body: "x" }], {
      "tmp/outpost-escaped": "/tm/outpost-escaped",
    });
    await refusedExtract("evil.zip", bytes);
  });

  it("refuses a Windows-style name climbing out with backslashes", async () => {
    const bytes = await zipOf([{ name: "xx/outside/evil.txt", body: "x" }], {
      "xx/outside/evil.txt": "..\\outside\\evil.txt",
    });
    await refusedExtract("evil.zip", bytes);
  });

  it("refuses a symlink entry to /etc, and one that climbs out", async () => {
    await refusedExtract("evil1.zip", await zipOf([{ name: "etc", body: "/etc", mode: 0o120777 }]));
    await refusedExtract("evil2.zip", await zipOf([{ name: "up", body: "../../outside", mode: 0o120777 }]));
  });

  it("refuses a .. segment even where its text stays inside (it would climb through a link made earlier)", async () => {
    // The link itself points inside (to ./); a later entry's `dot/..` reads as the root by its text.
    const bytes = await zipOf(
      [
        { name: "dot", body: ".", mode: 0o120777 },
        { name: "dot/xx/outside/evil.txt", body: "x" },
      ],
      { "dot/xx/outside/evil.txt": "dot/../outside/evil.txt" },
    );
    await refusedExtract("evil.zip", bytes);
    expect(fs.existsSync(path.join(s.root, "outside"))).toBe(false);
  });

  it("makes symlink entries that stay inside", async () => {
    const bytes = await zipOf([
      { name: "real/file.txt", body: "inside" },
      { name: "link", body: "real/file.txt", mode: 0o120777 },
    ]);
    fs.writeFileSync(path.join(s.root, "ok.zip"), bytes);
    await runOperations(
      [{ type: "extract", source: "ok.zip", destination: "." }],
      serverContext(s.root),
      s.env(),
    );
    expect(fs.readlinkSync(path.join(s.root, "link"))).toBe("real/file.txt");
    expect(fs.readFileSync(path.join(s.root, "link"), "utf8")).toBe("inside");
  });
});
