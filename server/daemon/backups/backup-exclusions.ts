import fs from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import type { Sandbox } from "../sandbox/index.ts";

/** The files in a server's root whose lines (gitignore syntax) a backup leaves out. */
export const ignoreFiles = [".outpostignore", ".pteroignore"] as const;
/** More than any real list; a larger file is read only this far. */
const ignoreFileMax = 64 * 1024;

/** What a backup's walk leaves out, and how many files it left out so far. */
export interface Exclusions {
  excludes(place: string, folder: boolean): boolean;
  leftOut: number;
}

/**
 * The exclusions of one backup: the template's default list, then the
 * server's `.outpostignore` and `.pteroignore` (Pterodactyl's name, read the
 * same way so a moved server keeps its list), all in gitignore syntax, so a
 * later `!pattern` takes back what an earlier one left out. Undefined when
 * there is nothing to leave out. The files are read through the sandbox: a
 * link named `.outpostignore` to elsewhere is refused, not followed.
 */
export async function backupExclusions(
  sandbox: Sandbox,
  templateList: readonly string[] = [],
): Promise<Exclusions | undefined> {
  const lines = [...templateList];
  for (const name of ignoreFiles) lines.push(...(await readIgnoreFile(sandbox, name)));
  const patterns = lines.map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "");
  if (patterns.length === 0) return undefined;
  // Loaded with the first backup that has exclusions, not with the idle node.
  const { default: ignore } = await import("ignore");
  const matcher = ignore({ allowRelativePaths: true }).add(patterns);
  return {
    leftOut: 0,
    excludes: (place, folder) => matcher.ignores(folder ? `${place}/` : place),
  };
}

async function readIgnoreFile(sandbox: Sandbox, name: string): Promise<string[]> {
  let handle: fs.FileHandle;
  try {
    handle = await sandbox.openRead(name);
  } catch (error) {
    if (error instanceof ApiError) return [];
    throw error;
  }
  try {
    const buffer = Buffer.alloc(ignoreFileMax);
    const { bytesRead } = await handle.read(buffer, 0, ignoreFileMax, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").split("\n");
  } finally {
    await handle.close();
  }
}

/** Files under a folder left out whole (counted, never opened: links are not followed). */
export async function countFiles(folder: string): Promise<number> {
  let count = 0;
  const names = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of names) {
    if (entry.isDirectory()) count += await countFiles(path.join(folder, entry.name));
    else count++;
  }
  return count;
}
