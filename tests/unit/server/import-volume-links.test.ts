import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { FileRead, NodeFiles } from "../../../server/contract/node/file-wire.ts";
import { copyVolume, localVolume } from "../../../server/panel/import/volumes.ts";

const uuid = "0b9c6a5e-1f2d-4c3b-8a7e-6d5c4b3a2f10";
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The node's side of the copy, as plain folders: what the import writes lands in `into`. `before`
 * runs as each folder is made and each file written — the moments a game process that still runs
 * on the old panel (the guide lets it) may swap a file or folder it owns for a link.
 */
function nodeFolder(into: string, before: (p: string) => void): NodeFiles {
  const at = (p: string) => path.join(into, p);
  return {
    async read(_id, p): Promise<FileRead> {
      const entries = fs.readdirSync(at(p), { withFileTypes: true }).map((e) => ({
        name: e.name,
        size: e.isFile() ? fs.statSync(at(path.join(p, e.name))).size : 0,
        isFile: e.isFile(),
      }));
      return { kind: "folder", entries } as unknown as FileRead;
    },
    async write(_id, p, body: Readable) {
      before(p);
      fs.mkdirSync(path.dirname(at(p)), { recursive: true });
      await pipeline(body, fs.createWriteStream(at(p)));
    },
    async makeFolder(_id, p) {
      before(p);
      fs.mkdirSync(at(p), { recursive: true });
    },
    remove: async () => {},
    move: async () => {},
    archive: async () => {},
    extract: async () => {},
  };
}

/** The volume as the import reads it on this host. */
function source(volume: string) {
  const found = localVolume(path.dirname(volume), uuid);
  if (!found) throw new Error("no volume");
  return found;
}

function workspace() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-volume-"));
  made.push(work);
  const volume = path.join(work, "volumes", uuid);
  const secrets = path.join(work, "host");
  const into = path.join(work, "node");
  fs.mkdirSync(volume, { recursive: true });
  fs.mkdirSync(path.join(secrets, "keys"), { recursive: true });
  fs.mkdirSync(into);
  fs.writeFileSync(path.join(secrets, "secret.key"), "the panel's sealing key");
  fs.writeFileSync(path.join(secrets, "keys", "node.key"), "a node's secret");
  return { work, volume, secrets, into };
}

describe("outpost import copies a Wings volume (issue 40) without following links swapped in mid-copy", () => {
  it("a file the game swaps for a link after it was listed is not read through the link", async () => {
    const { volume, secrets, into } = workspace();
    fs.writeFileSync(path.join(volume, "a.txt"), "first");
    fs.writeFileSync(path.join(volume, "b.txt"), "second");
    // Whichever the walk writes first, the other is swapped for a link to the panel's key.
    let swapped = "";
    const files = nodeFolder(into, (p) => {
      if (swapped) return;
      swapped = p === "a.txt" ? "b.txt" : "a.txt";
      fs.rmSync(path.join(volume, swapped));
      fs.symlinkSync(path.join(secrets, "secret.key"), path.join(volume, swapped));
    });
    await copyVolume(source(volume), files, "srv").catch(() => undefined);
    const other = swapped === "a.txt" ? "b.txt" : "a.txt";
    expect(fs.readFileSync(path.join(into, other), "utf8")).toMatch(/first|second/);
    const copied = fs.existsSync(path.join(into, swapped))
      ? fs.readFileSync(path.join(into, swapped), "utf8")
      : "";
    expect(copied).not.toContain("sealing key");
  });

  it("a folder the game swaps for a link after it was listed is not walked through the link", async () => {
    const { volume, secrets, into } = workspace();
    fs.mkdirSync(path.join(volume, "world"));
    fs.writeFileSync(path.join(volume, "world", "node.key"), "the world's own");
    // Listed as a folder, then made a link before the walk reads it.
    const files = nodeFolder(into, (p) => {
      if (p !== "world") return;
      fs.rmSync(path.join(volume, "world"), { recursive: true });
      fs.symlinkSync(path.join(secrets, "keys"), path.join(volume, "world"));
    });
    await copyVolume(source(volume), files, "srv").catch(() => undefined);
    const copied = fs.existsSync(path.join(into, "world", "node.key"))
      ? fs.readFileSync(path.join(into, "world", "node.key"), "utf8")
      : "";
    expect(copied).not.toContain("a node's secret");
  });

  it("still copies plain files and folders, and skips links that were there from the start", async () => {
    const { volume, secrets, into } = workspace();
    fs.mkdirSync(path.join(volume, "world", "region"), { recursive: true });
    fs.writeFileSync(path.join(volume, "server.properties"), "motd=old\n");
    fs.writeFileSync(path.join(volume, "world", "region", "r.0.0.mca"), Buffer.alloc(5000, 7));
    fs.symlinkSync(path.join(secrets, "secret.key"), path.join(volume, "key-link"));
    const result = await copyVolume(
      source(volume),
      nodeFolder(into, () => {}),
      "srv",
    );
    expect(result).toEqual({ copied: 2, same: 0, bytes: 5009 });
    expect(fs.readFileSync(path.join(into, "server.properties"), "utf8")).toBe("motd=old\n");
    expect(fs.statSync(path.join(into, "world", "region", "r.0.0.mca")).size).toBe(5000);
    expect(fs.existsSync(path.join(into, "key-link"))).toBe(false);
  });
});
