import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A backup as Wings writes one: a gzip tar of the server's folder, its entries relative to the
 * root — `./world/level.dat` (`dot`, as `tar -C root .` names them) or `world/level.dat`
 * (`plain`, as Wings' own archiver does). Made by GNU tar from files written here. Answers the
 * bytes and their SHA-1, which the panel records as `sha1:<hex>`.
 */
export function wingsBackup(
  files: Record<string, string | Buffer>,
  style: "dot" | "plain",
): { bytes: Buffer; sha1: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-wings-backup-"));
  try {
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), content);
    }
    const names = style === "dot" ? ["."] : fs.readdirSync(root).sort();
    const bytes = execFileSync("tar", ["-czf", "-", "-C", root, ...names], { maxBuffer: 64 * 1024 * 1024 });
    return { bytes, sha1: createHash("sha1").update(bytes).digest("hex") };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
