import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { denylistMatcher, ProtectedSandbox } from "../../../../server/daemon/sandbox/index.ts";

describe("an egg's file_denylist", () => {
  it("matches names at any depth, anchored paths, folders above, and allows again with !", () => {
    const denied = denylistMatcher(["*.jar", "/config/secret.yml", "logs/", "!allowed.jar", "# comment"]);
    expect(denied("server.jar")).toBe(true);
    expect(denied("plugins/x.jar")).toBe(true);
    expect(denied("allowed.jar")).toBe(false);
    expect(denied("jar.txt")).toBe(false);
    expect(denied("config/secret.yml")).toBe(true);
    expect(denied("other/config/secret.yml")).toBe(false);
    expect(denied("logs/latest.log")).toBe(true);
    expect(denied("mylogs/latest.log")).toBe(false);
    expect(denied("")).toBe(false);
  });
});

describe("the sandbox a server's users reach when an egg protects files", () => {
  it("refuses a folder holding a protected file, and a path reaching one through a link", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-denylist-"));
    try {
      fs.mkdirSync(path.join(root, "config"));
      fs.writeFileSync(path.join(root, "config", "game.cfg"), "game");
      fs.mkdirSync(path.join(root, "world"));
      fs.writeFileSync(path.join(root, "world", "level.dat"), "level");
      const sandbox = new ProtectedSandbox(root, denylistMatcher(["config/*.cfg"]));
      const refused = { code: "ErrFileDenied" };
      // Moved or removed with its folder, the file would leave the list's reach.
      await expect(sandbox.rename("config", "settings")).rejects.toMatchObject(refused);
      await expect(sandbox.remove("config", { recursive: true })).rejects.toMatchObject(refused);
      // A link to the folder is the folder.
      await sandbox.symlink("config", "alias");
      await expect(sandbox.remove("alias/game.cfg")).rejects.toMatchObject(refused);
      await expect(sandbox.rename("alias/game.cfg", "alias/game.bak")).rejects.toMatchObject(refused);
      await expect(sandbox.writeFile("alias/game.cfg", "changed")).rejects.toMatchObject(refused);
      expect(fs.readFileSync(path.join(root, "config", "game.cfg"), "utf8")).toBe("game");
      // What the list does not name moves and goes as usual; the link itself too.
      await sandbox.rename("world", "world2");
      await sandbox.remove("world2", { recursive: true });
      await sandbox.remove("alias");
      expect(fs.readdirSync(root).sort()).toEqual(["config"]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

// Issue 35, P8: a protected path that does not exist yet was made through a door the checks did not
// look at: a folder holding it renamed into place (over SFTP), or a link where its folder would be.
describe("a protected path that does not exist yet", () => {
  const refused = { code: "ErrFileDenied" };
  const withRoot = async (run: (root: string, sandbox: ProtectedSandbox) => Promise<void>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-denylist-new-"));
    try {
      await run(root, new ProtectedSandbox(root, denylistMatcher(["/config/secret.yml", "keys/**"])));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };

  it("is not made by renaming a folder that holds it into place", async () => {
    await withRoot(async (root, sandbox) => {
      fs.mkdirSync(path.join(root, "tmp"));
      fs.writeFileSync(path.join(root, "tmp", "secret.yml"), "mine");
      await expect(sandbox.rename("tmp", "config")).rejects.toMatchObject(refused);
      expect(fs.existsSync(path.join(root, "config"))).toBe(false);
      // The same folder without that file moves as usual.
      fs.renameSync(path.join(root, "tmp", "secret.yml"), path.join(root, "tmp", "other.yml"));
      await sandbox.rename("tmp", "config");
      expect(fs.readdirSync(path.join(root, "config"))).toEqual(["other.yml"]);
    });
  });

  it("is not reached through a link where its folder would be, made or moved there", async () => {
    await withRoot(async (root, sandbox) => {
      fs.mkdirSync(path.join(root, "tmp"));
      await expect(sandbox.symlink("tmp", "config")).rejects.toMatchObject(refused);
      await expect(sandbox.symlink("tmp", "keys")).rejects.toMatchObject(refused);
      fs.symlinkSync("tmp", path.join(root, "link"));
      await expect(sandbox.rename("link", "config")).rejects.toMatchObject(refused);
      expect(fs.existsSync(path.join(root, "config"))).toBe(false);
      // A link elsewhere is fine.
      await sandbox.symlink("tmp", "elsewhere");
    });
  });

  it("is not made by moving a file through a link to its folder", async () => {
    await withRoot(async (root, sandbox) => {
      fs.mkdirSync(path.join(root, "config"));
      fs.symlinkSync("config", path.join(root, "alias"));
      fs.writeFileSync(path.join(root, "secret.yml"), "mine");
      await expect(sandbox.rename("secret.yml", "alias/secret.yml")).rejects.toMatchObject(refused);
      await expect(sandbox.writeFile("alias/secret.yml", "mine")).rejects.toMatchObject(refused);
      expect(fs.existsSync(path.join(root, "config", "secret.yml"))).toBe(false);
    });
  });
});
