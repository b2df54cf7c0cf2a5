import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { ApiError } from "../../errors.ts";
import { EntryWriter } from "../archive/entry-writer.ts";
import { ExtractBudget } from "../archive/extract-budget.ts";
import { extractTar } from "../archive/extract-tar.ts";
import { readStreamOf, Sandbox } from "../sandbox/index.ts";
import { backupPlace } from "./backup-rules.ts";
import { failureReason } from "./failure-reason.ts";

/** The folder inside a server's root a partial restore stages in; a crash's leftover is removed at the next start. */
const stagingPrefix = ".outpost-restore-";
const leftover = /^\.outpost-restore-[0-9a-f]+(-old)?$/;
const journal = "places.json";

/**
 * The places a `{"paths": [...]}` restore names, as the backup's entries
 * name them: root-relative, never `..` (400 ErrIllegalFileAccess), and one
 * inside another named place dropped (the outer one brings it). An empty
 * answer means the root was named: the whole backup.
 */
export function restorePlaces(paths: string[]): string[] {
  const places = paths.map((raw) => {
    if (raw.includes("\0"))
      throw new ApiError(400, "ErrIllegalFileAccess", "a place inside a backup has no NUL");
    return backupPlace(raw.replace(/\\/g, "/"));
  });
  if (places.includes("")) return [];
  const sorted = [...new Set(places)].sort();
  return sorted.filter((place) => !sorted.some((other) => other !== place && place.startsWith(`${other}/`)));
}

/**
 * Restores some files or folders of a backup into a server's folder,
 * reading the archive once as it streams (from the disk or the bucket) and
 * writing only the entries at or under the named places: nothing else of
 * the archive touches the disk.
 *
 * The entries go through the server's sandbox into a staging folder inside
 * its root (every name checked by the safe extractor: no absolute name, no
 * `..`, links only to places inside the root). Only once every one is
 * written, and every named place was found, is each place swapped in: the
 * current one moved aside, the restored one renamed in (the sandbox's rename,
 * which checks the links it carries again from their new place), the old one
 * removed. A restored folder replaces the folder as it is now, as a whole
 * restore replaces the whole tree. Any failure before the swap leaves the
 * server's files as they were. Answers the entries written.
 */
export async function restorePaths(
  root: string,
  archive: string | (() => Promise<Readable>),
  places: string[],
  signal?: AbortSignal,
): Promise<number> {
  const sandbox = new Sandbox(root);
  const tag = randomBytes(6).toString("hex");
  const staging = `${stagingPrefix}${tag}`;
  const aside = `${staging}-old`;
  const found = new Set<string>();
  const only = (name: string) => {
    // Read as the writer reads it, so an absolute or `./` name under a named place is
    // matched, then refused by the writer (never written elsewhere).
    const place = name
      .replace(/\\/g, "/")
      .replace(/^(\.?\/)+/, "")
      .replace(/\/+$/, "");
    const match = places.find((wanted) => place === wanted || place.startsWith(`${wanted}/`));
    if (match !== undefined) found.add(match);
    return match !== undefined;
  };
  const source =
    typeof archive === "string"
      ? readStreamOf(
          await fs.open(archive, "r").catch((error) => {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") {
              throw new ApiError(404, "ErrBackupNotFound", "the node has no such backup");
            }
            throw error;
          }),
        )
      : await archive();
  try {
    let entries: number;
    try {
      await sandbox.mkdirp(staging);
      // The node's own backup: only the free space bounds what it unpacks to, as for a whole restore.
      const writer = new EntryWriter(sandbox, staging, signal, 0, await ExtractBudget.of(root), true);
      entries = await extractTar(source, writer, { signal, only });
    } catch (error) {
      throw new ApiError(
        500,
        "ErrBackupRestoreFailed",
        "the backup could not be restored (${reason}); the server's files were not changed",
        { reason: failureReason(error, { [path.join(root, staging)]: "the new folder" }) },
        { cause: error },
      );
    }
    const missing = places.find((place) => !found.has(place));
    if (missing !== undefined) {
      throw new ApiError(404, "ErrFileNotFound", "the backup holds nothing at ${path}", { path: missing });
    }
    await sandbox.mkdirp(aside);
    // What each numbered thing aside was: a crash mid-swap puts it back at the next start.
    await sandbox.writeFile(`${aside}/${journal}`, JSON.stringify(places));
    for (const [index, place] of places.entries())
      await swapIn(sandbox, place, `${staging}/${place}`, `${aside}/${index}`);
    return entries;
  } finally {
    source.destroy();
    await sandbox.remove(staging, { recursive: true }).catch(() => {});
    await sandbox.remove(aside, { recursive: true }).catch(() => {});
  }
}

/** Puts the restored `from` at `place`; what was there is moved to `aside` first and put back when that fails. */
async function swapIn(sandbox: Sandbox, place: string, from: string, aside: string): Promise<void> {
  const current = await sandbox.resolve(place, { followFinal: false });
  if (current.stats) await sandbox.rename(place, aside);
  try {
    const folder = path.posix.dirname(place);
    if (folder !== ".") await sandbox.mkdirp(folder);
    await sandbox.rename(from, place);
  } catch (error) {
    if (current.stats) await sandbox.rename(aside, place).catch(() => {});
    throw error;
  }
}

/**
 * Finishes what a partial restore cut short by a crash left in a server's
 * folder: a place moved aside with nothing swapped in yet goes back (the
 * journal says where), then the staging and aside folders are removed.
 */
export async function removePartialRestoreLeftovers(root: string): Promise<boolean> {
  const names = await fs.readdir(root).catch(() => [] as string[]);
  const left = names.filter((name) => leftover.test(name));
  const sandbox = new Sandbox(root);
  for (const name of left.filter((n) => n.endsWith("-old"))) {
    const places = await fs
      .readFile(path.join(root, name, journal), "utf8")
      .then((text) => JSON.parse(text) as string[])
      .catch(() => [] as string[]);
    for (const [index, place] of places.entries()) {
      const moved = await sandbox.resolve(`${name}/${index}`, { followFinal: false }).catch(() => undefined);
      const now = await sandbox.resolve(place, { followFinal: false }).catch(() => undefined);
      if (moved?.stats && now && !now.stats) await sandbox.rename(`${name}/${index}`, place).catch(() => {});
    }
  }
  for (const name of left) await fs.rm(path.join(root, name), { recursive: true, force: true });
  return left.length > 0;
}
