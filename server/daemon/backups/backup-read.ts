import { createHash } from "node:crypto";
import { type Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { ReadEntry } from "tar";
import { ApiError, errorText } from "../../errors.ts";
import type { BackupFacts } from "./backup-facts.ts";

/**
 * Reads a backup archive once from start to end, as it streams (from the
 * disk or the bucket): gunzip, then tar's strict parser, each entry handed
 * to `onEntry` (which reads or skips its body). Nothing is written anywhere.
 * Answers the bytes read and their SHA-256 (and SHA-1, the checksum Wings records).
 */
export async function readBackupArchive(
  source: Readable,
  onEntry: (entry: ReadEntry) => void | Promise<void>,
): Promise<ArchiveRead> {
  const { Parser } = await import("tar");
  const hash = createHash("sha256");
  const sha1 = createHash("sha1");
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      sha1.update(chunk);
      done(null, chunk);
    },
  });
  // An empty folder's archive is only tar's end blocks, which tar's parser calls unrecognised.
  let entries = 0;
  let onlyZeros = true;
  const watchEmpty = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (onlyZeros && entries === 0) onlyZeros = !chunk.some((byte) => byte !== 0);
      done(null, chunk);
    },
  });
  const parser = new Parser({ strict: true });
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  parser.on("entry", (entry: ReadEntry) => {
    entries++;
    chain = chain
      .then(() => (failure ? entry.resume() : onEntry(entry)))
      .then(() => {
        entry.resume();
      })
      .catch((error: unknown) => {
        failure ??= error;
        entry.resume();
      });
  });
  const parsed = new Promise<void>((resolve, reject) => {
    const fail = (error: Error & { code?: string }) =>
      error.code === "TAR_BAD_ARCHIVE" && entries === 0 && onlyZeros ? resolve() : reject(error);
    parser.on("error", fail);
    parser.on("abort", fail);
    parser.on("end", () => resolve());
  });
  parsed.catch(() => {});
  // The parser as the pipeline's end: it is a minipass stream, so it is written to by hand.
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (parser.write(chunk)) done();
      else parser.once("drain", () => done());
    },
    final(done) {
      parser.end();
      parsed.then(() => done(), done);
    },
  });
  await pipeline(source, count, createGunzip(), watchEmpty, sink);
  await parsed;
  await chain;
  if (failure) throw failure;
  return { size, sha256: hash.digest("hex"), sha1: sha1.digest("hex") };
}

interface ArchiveRead {
  size: number;
  sha256: string;
  sha1: string;
}

/**
 * Checks a backup against the facts written with it: its size, its SHA-256,
 * and that the archive reads through to its end (gzip's checksums and tar's
 * headers). Answers why it fails, in words a user may see, and what was read. A backup adopted
 * from another panel has no SHA-256 of ours yet: the SHA-1 that panel recorded is checked instead.
 */
export async function verifyBackup(
  open: () => Promise<Readable>,
  facts: BackupFacts | undefined,
  sha1?: string,
): Promise<{ ok: boolean; reason?: string; read?: ArchiveRead }> {
  let read: ArchiveRead | undefined;
  let broken: string | undefined;
  const source = await open();
  try {
    read = await readBackupArchive(source, () => {});
  } catch (error) {
    broken = errorText(error);
  } finally {
    source.destroy();
  }
  if (facts?.sha256 && read && read.size !== facts.size) {
    return { ok: false, reason: `its size is ${read.size} bytes, ${facts.size} were written` };
  }
  if (facts?.sha256 && read && read.sha256 !== facts.sha256) {
    return { ok: false, reason: "its SHA-256 is not the one recorded when it was written" };
  }
  if (!facts?.sha256 && sha1 && read && read.sha1 !== sha1) {
    return { ok: false, reason: "its SHA-1 is not the one the panel it came from recorded" };
  }
  if (broken !== undefined) return { ok: false, reason: `the archive cannot be read: ${broken}` };
  // A backup from before the facts were kept: that it reads through is all there is to check.
  return { ok: true, ...(read ? { read } : {}) };
}

/** One thing in a folder of a backup. */
export interface BackupEntry {
  name: string;
  type: "file" | "directory" | "symlink";
  size: number;
}

/**
 * The direct children of `folder` ("" for the root) in a backup, read as the
 * archive streams by (never unpacked): a folder that only deeper entries
 * name is listed as a folder too. Sorted folders first, then by name.
 */
export async function listBackupFolder(source: Readable, folder: string): Promise<BackupEntry[]> {
  const prefix = folder ? `${folder}/` : "";
  const found = new Map<string, BackupEntry>();
  let folderSeen = folder === "";
  await readBackupArchive(source, (entry) => {
    // `./world/level.dat` as `world/level.dat` (an archive made by `tar -C root .`, as some of
    // Wings' are); the root's own `./` entry names nothing inside it.
    const place = entry.path.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
    if (place === "" || place === ".") return;
    if (place === folder) folderSeen = true;
    if (!place.startsWith(prefix) || place === folder) return;
    folderSeen = true;
    const rest = place.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash >= 0) {
      const name = rest.slice(0, slash);
      if (!found.has(name)) found.set(name, { name, type: "directory", size: 0 });
      return;
    }
    const type =
      entry.type === "Directory" ? "directory" : entry.type === "SymbolicLink" ? "symlink" : "file";
    found.set(rest, { name: rest, type, size: type === "file" ? (entry.size ?? 0) : 0 });
  });
  if (!folderSeen)
    throw new ApiError(404, "ErrFileNotFound", "the backup holds no folder ${path}", { path: folder });
  return [...found.values()].sort(
    (a, b) => Number(b.type === "directory") - Number(a.type === "directory") || (a.name < b.name ? -1 : 1),
  );
}
