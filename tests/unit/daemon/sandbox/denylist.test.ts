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
