import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { blockOf, nodeUidBlock } from "../../../server/daemon/servers/uid-blocks.ts";

describe("the host's registry of server uid blocks", () => {
  let dir: string;
  let registry: string;
  const serversFolder = (name: string) => {
    const at = path.join(dir, name, "servers");
    fs.mkdirSync(at, { recursive: true });
    return at;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-uid-blocks-"));
    registry = path.join(dir, "registry", "uid-blocks.json");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("gives each servers folder its own block, and the same block again on the next start", () => {
    const a = serversFolder("a");
    const b = serversFolder("b");
    const first = nodeUidBlock(a, registry);
    const second = nodeUidBlock(b, registry);
    expect(first).toEqual(blockOf(0));
    expect(second).toEqual(blockOf(1));
    expect(second.first).toBeGreaterThanOrEqual(first.first + first.count);
    expect(nodeUidBlock(a, registry)).toEqual(first);
    expect(JSON.parse(fs.readFileSync(registry, "utf8"))).toEqual({ [a]: 0, [b]: 1 });
  });

  it("frees the block of a servers folder that is gone", () => {
    const a = serversFolder("a");
    nodeUidBlock(a, registry);
    const b = serversFolder("b");
    expect(nodeUidBlock(b, registry).index).toBe(1);
    fs.rmSync(path.dirname(a), { recursive: true });
    expect(nodeUidBlock(serversFolder("c"), registry).index).toBe(0);
  });

  it.runIf(process.getuid?.() === 0)(
    "keeps a node whose servers already have uids in their block when it is free",
    () => {
      nodeUidBlock(serversFolder("other"), registry);
      const old = serversFolder("old");
      fs.mkdirSync(path.join(old, "s1"));
      fs.chownSync(path.join(old, "s1"), blockOf(3).first + 7, blockOf(3).first + 7);
      expect(nodeUidBlock(old, registry).index).toBe(3);
    },
  );

  it("hands out distinct blocks to nodes registering at the same moment from separate processes", async () => {
    const folders = ["p1", "p2", "p3", "p4"].map(serversFolder);
    const module = path.resolve(import.meta.dirname, "../../../server/daemon/servers/uid-blocks.ts");
    const answers = await Promise.all(
      folders.map(
        (folder) =>
          new Promise<number>((resolve, reject) => {
            const child = spawn(
              process.execPath,
              [
                "--import",
                "tsx",
                "-e",
                `import(${JSON.stringify(module)}).then((m) => console.log(m.nodeUidBlock(${JSON.stringify(folder)}, ${JSON.stringify(registry)}).index))`,
              ],
              { stdio: ["ignore", "pipe", "inherit"] },
            );
            let out = "";
            child.stdout.on("data", (d) => (out += d));
            child.on("exit", (code) =>
              code === 0 ? resolve(Number(out.trim())) : reject(new Error(`exit ${code}`)),
            );
          }),
      ),
    );
    expect(new Set(answers).size).toBe(4);
    // Four Node processes loading TypeScript at once: seconds each on a busy 2-core machine.
  }, 30_000);
});
