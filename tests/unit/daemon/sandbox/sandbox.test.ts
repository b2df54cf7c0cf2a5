import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Sandbox } from "../../../../server/daemon/sandbox/index.ts";
import { ApiError } from "../../../../server/errors.ts";
import { decodeRequestPath } from "../../../../server/http/request-path.ts";

/**
 * A real folder tree per test: `servers/a` is the sandboxed root, `servers/b`
 * a sibling server, `outside` a folder that must never be read or written
 * through the sandbox.
 */
let base: string;
let root: string;
let sibling: string;
let outside: string;
let sandbox: Sandbox;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-sandbox-"));
  root = path.join(base, "servers", "a");
  sibling = path.join(base, "servers", "b");
  outside = path.join(base, "outside");
  for (const dir of [root, sibling, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), "outside secret");
  fs.writeFileSync(path.join(sibling, "server.properties"), "sibling secret");
  sandbox = new Sandbox(root);
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function refused(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("ErrIllegalFileAccess");
  expect((error as ApiError).status).toBe(400);
  return error as ApiError;
}

/** Every file under `dir`, relative, for "nothing was written there" checks. */
function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("Sandbox: paths by their text", () => {
  const climbing = ["..", "../", "../x", "a/../../x", "a/b/../../../x", "./../x", "a/./../../x", "..//x"];

  it.each(climbing)("refuses %j, which climbs out", async (attempt) => {
    await refused(sandbox.resolve(attempt));
    await refused(sandbox.writeFile(attempt, "x"));
    expect(tree(base).filter((f) => !f.startsWith("servers") && !f.startsWith("outside"))).toEqual([]);
  });

  it.each(["a\0b", "\0", "file.txt\0.png"])("refuses a NUL byte in %j", async (attempt) => {
    await refused(sandbox.resolve(attempt));
  });

  it("reads a leading slash as the server folder (request and template paths), never as the host's /", async () => {
    const location = await sandbox.resolve("/etc/passwd");
    expect(location.path).toBe(path.join(fs.realpathSync(root), "etc/passwd"));
    await sandbox.writeFile("//etc/passwd", "inside");
    expect(fs.readFileSync(path.join(root, "etc/passwd"), "utf8")).toBe("inside");
  });

  it("takes an absolute path naming the server folder itself (${rootDir}/x) as that place", async () => {
    expect((await sandbox.resolve(path.join(root, "sub/x.txt"))).relative).toBe("sub/x.txt");
    expect((await sandbox.resolve(root)).relative).toBe("");
  });

  it.each(["/etc/passwd", "//etc", "C:\\Windows\\x", "c:/x", "\\\\server\\share"])(
    "refuses the absolute name %j where absolute names are refused (archive entries)",
    async (attempt) => {
      await refused(sandbox.resolve(attempt, { absolute: "refuse" }));
    },
  );

  it("accepts ordinary nested paths and normalises them", async () => {
    await sandbox.writeFile("a/b/c.txt", "deep");
    expect(fs.readFileSync(path.join(root, "a/b/c.txt"), "utf8")).toBe("deep");
    for (const form of ["a/b/c.txt", "./a//b/./c.txt", "a/x/../b/c.txt", "/a/b/c.txt", "a/b/c.txt/"]) {
      const location = await sandbox.resolve(form);
      expect(location.relative).toBe("a/b/c.txt");
      expect(location.stats?.isFile()).toBe(true);
    }
    expect((await sandbox.resolve("")).relative).toBe("");
    expect((await sandbox.resolve("no/such/file")).stats).toBeUndefined();
  });

  it("decodes a request path exactly once", async () => {
    expect(decodeRequestPath("%2e%2e%2fetc%2fpasswd")).toBe("../etc/passwd");
    await refused(sandbox.resolve(decodeRequestPath("%2e%2e%2f%2e%2e%2foutside")));
    await refused(sandbox.resolve(decodeRequestPath("..%2f..%2foutside%2fsecret.txt")));
    // Double-encoded: one decode leaves a literal file name inside the root.
    const doubled = decodeRequestPath("%252e%252e%252foutside");
    expect(doubled).toBe("%2e%2e%2foutside");
    expect((await sandbox.resolve(doubled)).relative).toBe("%2e%2e%2foutside");
    await refused(Promise.resolve().then(() => decodeRequestPath("%E0%A4%A")));
  });
});

describe("Sandbox: symlinks", () => {
  it("refuses a symlink to /etc, and anything through it", async () => {
    fs.symlinkSync("/etc", path.join(root, "etc-link"));
    await refused(sandbox.resolve("etc-link"));
    await refused(sandbox.resolve("etc-link/passwd"));
    await refused(sandbox.openRead("etc-link/passwd"));
    await refused(sandbox.writeFile("etc-link/outpost-test", "x"));
    expect(fs.existsSync("/etc/outpost-test")).toBe(false);
    expect(sandbox.existsSync("etc-link/passwd")).toBe(false);
  });

  it("refuses a symlink to a file outside", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret"));
    await refused(sandbox.openRead("secret"));
    await refused(sandbox.writeFile("secret", "overwritten"));
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret");
  });

  it("refuses a symlink to a sibling server, relative or absolute", async () => {
    fs.symlinkSync("../b", path.join(root, "rel-sibling"));
    fs.symlinkSync(sibling, path.join(root, "abs-sibling"));
    for (const attempt of ["rel-sibling/server.properties", "abs-sibling/server.properties", "rel-sibling"]) {
      await refused(sandbox.openRead(attempt));
      await refused(sandbox.writeFile(attempt, "x"));
    }
    expect(fs.readFileSync(path.join(sibling, "server.properties"), "utf8")).toBe("sibling secret");
  });

  it("refuses a symlinked parent folder: nothing is made or written outside", async () => {
    fs.symlinkSync(outside, path.join(root, "parent"));
    const before = tree(outside);
    await refused(sandbox.writeFile("parent/new.txt", "x"));
    await refused(sandbox.mkdirp("parent/sub/deeper"));
    await refused(sandbox.rename("parent/secret.txt", "stolen.txt"));
    fs.writeFileSync(path.join(root, "mine.txt"), "mine");
    await refused(sandbox.rename("mine.txt", "parent/mine.txt"));
    await refused(sandbox.remove("parent/secret.txt"));
    expect(tree(outside)).toEqual(before);
  });

  it("refuses a dangling symlink whose target would be created outside", async () => {
    fs.symlinkSync(path.join(outside, "planted.txt"), path.join(root, "dangling"));
    await refused(sandbox.writeFile("dangling", "x"));
    await refused(sandbox.mkdirp("dangling"));
    expect(fs.existsSync(path.join(outside, "planted.txt"))).toBe(false);
  });

  it("refuses chains of links that each look inside but lead out together", async () => {
    // here -> "." is the root; up -> "here/.." is then the root's parent.
    fs.symlinkSync(".", path.join(root, "here"));
    fs.symlinkSync("here/..", path.join(root, "up"));
    await refused(sandbox.resolve("up/b/server.properties"));
    await refused(sandbox.writeFile("up/b/server.properties", "x"));
    // A loop is refused rather than followed forever.
    fs.symlinkSync("loop2", path.join(root, "loop1"));
    fs.symlinkSync("loop1", path.join(root, "loop2"));
    await refused(sandbox.resolve("loop1/x"));
    expect(fs.readFileSync(path.join(sibling, "server.properties"), "utf8")).toBe("sibling secret");
  });

  it("follows symlinks that stay inside the root, relative or absolute", async () => {
    await sandbox.writeFile("config/real.properties", "motd=hi");
    fs.symlinkSync("config/real.properties", path.join(root, "server.properties"));
    fs.symlinkSync(path.join(root, "config"), path.join(root, "cfg"));
    const handle = await sandbox.openRead("server.properties");
    expect(await handle.readFile("utf8")).toBe("motd=hi");
    await handle.close();
    await sandbox.writeFile("cfg/real.properties", "motd=changed");
    expect(fs.readFileSync(path.join(root, "config/real.properties"), "utf8")).toBe("motd=changed");
    expect((await sandbox.resolve("cfg/real.properties")).relative).toBe("config/real.properties");
  });

  it("refuses a file swapped for a symlink between the check and the open", async () => {
    await sandbox.writeFile("a.txt", "mine");
    const location = await sandbox.resolve("a.txt");
    fs.rmSync(path.join(root, "a.txt"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "a.txt"));
    await refused(sandbox.openResolvedRead(location));
    await refused(sandbox.openResolvedWrite(location));
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret");
  });

  it("refuses a parent folder swapped for a symlink between the check and the open", async () => {
    await sandbox.writeFile("dir/secret.txt", "mine");
    const existing = await sandbox.resolve("dir/secret.txt");
    const missing = await sandbox.resolve("dir/created.txt");
    fs.renameSync(path.join(root, "dir"), path.join(root, "dir-moved"));
    fs.symlinkSync(outside, path.join(root, "dir"));
    await refused(sandbox.openResolvedRead(existing));
    await refused(sandbox.openResolvedWrite(existing));
    await refused(sandbox.openResolvedWrite(missing));
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret");
    expect(fs.existsSync(path.join(outside, "created.txt"))).toBe(false);
  });

  it("does not hang on a FIFO planted under a file's name", async () => {
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const error = await sandbox.openRead("pipe").catch((err: unknown) => err);
    expect((error as ApiError).message).toContain("not a regular file");
    const writing = await sandbox.openWrite("pipe").catch((err: unknown) => err);
    expect((writing as ApiError).message).toContain("not a regular file");
  });
});

describe("Sandbox: operations", () => {
  it("makes links only to places inside the root", async () => {
    await sandbox.writeFile("sub/file.txt", "x");
    await sandbox.symlink("sub/file.txt", "good-link");
    expect(fs.readlinkSync(path.join(root, "good-link"))).toBe("sub/file.txt");
    await sandbox.symlink("../sub/file.txt", "sub/nested-link");
    expect(fs.readFileSync(path.join(root, "sub/nested-link"), "utf8")).toBe("x");
    // The same target from the root's level climbs out.
    await refused(sandbox.symlink("../sub/file.txt", "sub2/../nested-link"));
    await refused(sandbox.symlink("/etc/passwd", "abs-link"));
    await refused(sandbox.symlink("../../outside/secret.txt", "out-link"));
    await refused(sandbox.symlink("../b", "sibling-link"));
    fs.symlinkSync(".", path.join(root, "here"));
    await refused(sandbox.symlink("here/../outside", "chain-link"));
    for (const name of ["abs-link", "out-link", "sibling-link", "chain-link", "nested-link"]) {
      expect(fs.existsSync(path.join(root, name))).toBe(false);
    }
  });

  it("removes a link, not what it points to, and never the root", async () => {
    await sandbox.writeFile("kept.txt", "kept");
    fs.symlinkSync("kept.txt", path.join(root, "link"));
    await sandbox.remove("link");
    expect(fs.readFileSync(path.join(root, "kept.txt"), "utf8")).toBe("kept");
    await refused(sandbox.remove(""));
    await refused(sandbox.remove("/"));
    expect(fs.existsSync(root)).toBe(true);
  });

  it("globs like Go's filepath.Glob, inside the root only", async () => {
    for (const name of ["paper-1.20.jar", "paper-1.21.jar", "other.jar", "libs/paper-x.jar"]) {
      await sandbox.writeFile(name, "x");
    }
    expect(await sandbox.glob("paper-*.jar")).toEqual(["paper-1.20.jar", "paper-1.21.jar"]);
    expect(await sandbox.glob("*/paper-?.jar")).toEqual(["libs/paper-x.jar"]);
    expect(await sandbox.glob("paper-1.2[1-9].jar")).toEqual(["paper-1.21.jar"]);
    expect(await sandbox.glob("nothing-*.jar")).toEqual([]);
    await refused(sandbox.glob("../*"));
    fs.symlinkSync(outside, path.join(root, "out"));
    expect(await sandbox.glob("out/*")).toEqual([]);
  });

  it("answers file_exists synchronously, false for refused paths", async () => {
    await sandbox.writeFile("server.properties", "x");
    expect(sandbox.existsSync("server.properties")).toBe(true);
    expect(sandbox.existsSync("missing")).toBe(false);
    expect(sandbox.existsSync("../b/server.properties")).toBe(false);
    expect(sandbox.resolveSync("/server.properties").relative).toBe("server.properties");
  });
});

describe("Sandbox: deep folders", () => {
  it("makes a deep chain of folders in one call", async () => {
    const location = await sandbox.mkdirp("a/b/c/d/e/f/g/h/i/j");
    expect(location.relative).toBe("a/b/c/d/e/f/g/h/i/j");
    expect(fs.statSync(path.join(root, "a/b/c/d/e/f/g/h/i/j")).isDirectory()).toBe(true);
  });
});

describe("Sandbox: moves never leave a link leading out", () => {
  // A relative link climbs from where it lies: moved higher up, the same text leads further out.
  // Every link the API can make is checked where it is made; a move must check where it lands.
  beforeEach(async () => {
    await sandbox.mkdirp("deep/er");
    await sandbox.symlink("../../outside-dir", "deep/er/up");
    fs.mkdirSync(path.join(root, "outside-dir"));
  });

  const resolvesInside = (link: string) => {
    const real = fs.realpathSync(path.join(root, link));
    return real === fs.realpathSync(root) || real.startsWith(`${fs.realpathSync(root)}/`);
  };

  it("refuses to move a folder whose link would then lead out of the root, and leaves it where it was", async () => {
    fs.mkdirSync(path.join(base, "servers", "outside-dir"));
    await refused(sandbox.rename("deep/er", "er"));
    expect(fs.readlinkSync(path.join(root, "deep/er/up"))).toBe("../../outside-dir");
    expect(fs.existsSync(path.join(root, "er"))).toBe(false);
    expect(resolvesInside("deep/er/up")).toBe(true);
  });

  it("refuses to move such a link itself higher up", async () => {
    await refused(sandbox.rename("deep/er/up", "up"));
    expect(fs.lstatSync(path.join(root, "deep/er/up")).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(root, "up"))).toBe(false);
  });

  it("moves a folder whose links still lead inside from where it lands", async () => {
    await sandbox.mkdirp("other");
    await sandbox.rename("deep/er", "other/er");
    expect(resolvesInside("other/er/up")).toBe(true);
    await sandbox.rename("deep", "other/deep");
    expect(fs.existsSync(path.join(root, "other/deep"))).toBe(true);
  });
});

describe("Sandbox: a small new file in one go", () => {
  it("creates it with its bytes, mode and time; a taken name is left to the ordinary way", () => {
    fs.mkdirSync(path.join(root, "world"));
    const when = new Date("2024-05-01T10:00:00Z");
    expect(sandbox.createNewFileSync("world/level.dat", Buffer.from("level"), 0o640, when)).toBe(true);
    const file = path.join(root, "world/level.dat");
    expect(fs.readFileSync(file, "utf8")).toBe("level");
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(fs.statSync(file).mtime.toISOString()).toBe(when.toISOString());
    expect(sandbox.createNewFileSync("world/level.dat", Buffer.from("again"), 0o644)).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe("level");
  });

  it("refuses a place through a link that leads out, writing nothing there", () => {
    fs.symlinkSync(outside, path.join(root, "parent"));
    fs.symlinkSync(path.join(outside, "planted.txt"), path.join(root, "dangling"));
    const before = tree(outside);
    const illegal = (work: () => unknown) => {
      expect(work).toThrow(ApiError);
      try {
        work();
      } catch (error) {
        expect((error as ApiError).code).toBe("ErrIllegalFileAccess");
      }
    };
    illegal(() => sandbox.createNewFileSync("parent/new.txt", Buffer.from("x"), 0o644));
    // A link under the name itself is never followed: the name is taken.
    expect(sandbox.createNewFileSync("dangling", Buffer.from("x"), 0o644)).toBe(false);
    expect(tree(outside)).toEqual(before);
  });

  it("refuses a parent folder swapped for a link to elsewhere after the place was found", async () => {
    const { createFileSync } = await import("../../../../server/daemon/sandbox/open.ts");
    fs.mkdirSync(path.join(root, "dir"));
    const missing = await sandbox.resolve("dir/created.txt");
    fs.renameSync(path.join(root, "dir"), path.join(root, "dir-moved"));
    fs.symlinkSync(outside, path.join(root, "dir"));
    const roots = { given: root, real: fs.realpathSync(root) };
    expect(() => createFileSync(missing, roots, "dir/created.txt", Buffer.from("x"), 0o644)).toThrow(
      /moved out of the server folder/,
    );
    expect(fs.existsSync(path.join(outside, "created.txt"))).toBe(false);
  });
});
