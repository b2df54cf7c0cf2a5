import type { Hash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { ApiError } from "../../errors.ts";
import { type Sandbox, writeStreamOf } from "../sandbox/index.ts";
import { countFiles, type Exclusions } from "./backup-exclusions.ts";

/** Bytes read from a file at a time, and the gzip output's chunk. */
const readChunk = 1024 * 1024;
const gzipChunk = 64 * 1024;
/**
 * Gzip members compressed at once on libuv's threads. One gzip stream keeps
 * one core busy while `tar czf` runs tar and gzip side by side; two members at
 * a time (each about 1 MiB of tar) bring the backup to tar's pace. A gzip file
 * may hold several members one after the other: gzip, tar and Node's gunzip
 * read it as one.
 */
const gzipAtOnce = 2;
const gzipAsync = promisify(gzip);

type Tar = typeof import("tar");

/** What a backup being written has done so far, read by the node's status answers. */
export interface BackupProgress {
  /** Bytes of the server's files read. */
  read: number;
  /** Bytes of the archive written. */
  written: number;
  /** Fed every byte of the archive as it leaves (a backup's SHA-256). */
  digest?: Hash;
}

/** One thing in the server folder that goes into the archive. */
interface Member {
  /** Root-relative place, also the entry's name (folders get a trailing slash). */
  place: string;
  /** Where the walk found it (under a folder the sandbox resolved). */
  path: string;
  kind: "file" | "directory" | "symlink";
  stats: fs.Stats;
  linkTarget?: string;
}

/**
 * Writes a tar.gz of a whole server folder to `target` (a path outside the
 * folder, in the node's backups folder). Every folder is resolved and every
 * file opened through the server's sandbox, one file at a time, so memory
 * stays flat: a symlink is stored as a link and never followed, and a file
 * or folder swapped for a link to elsewhere while the walk runs is refused
 * when it is opened (the sandbox checks the open file's real place). Entry
 * names are root-relative (`config/a.txt`), so a restore puts them back in
 * the root.
 *
 * archive/create.ts makes archives *inside* a server folder with names
 * under a top folder; a backup needs the archive outside the sandbox and
 * the root's content unprefixed, hence this walker of its own. It also
 * reads 1 MiB at a time and opens each file once (not walked twice), which
 * keeps it near `tar czf` on a large tree.
 *
 * The bytes go to the file as it is created (the caller names a temporary
 * file and renames it once this resolves); the file is synced before that.
 * `skipped` hears of what could not be stored (links out of the folder).
 * `limit`, when given, sits between gzip and the file and fails the write
 * once the archive would take the server over its disk limit.
 */
export async function writeBackupArchive(
  sandbox: Sandbox,
  target: string,
  progress: BackupProgress,
  skipped: (place: string, why: string) => void,
  options: { limit?: Transform; signal?: AbortSignal; exclusions?: Exclusions } = {},
): Promise<void> {
  const handle = await fs.promises.open(target, "wx", 0o600);
  try {
    await pipeline(
      backupArchiveStream(sandbox, progress, skipped, options.exclusions),
      options.limit ?? new PassThrough(),
      writeStreamOf(handle),
      { signal: options.signal },
    );
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The same archive as a stream, made as it is read (an upload to object
 * storage takes it straight from here); `progress.written` counts what left.
 */
export function backupArchiveStream(
  sandbox: Sandbox,
  progress: BackupProgress,
  skipped: (place: string, why: string) => void,
  exclusions?: Exclusions,
): Readable {
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      progress.written += chunk.length;
      progress.digest?.update(chunk);
      done(null, chunk);
    },
  });
  // A few chunks read ahead, so files are opened and read while zlib compresses the last ones.
  const source = Readable.from(
    gzipMembers(coalesce(tarBlocks(sandbox, progress, skipped, exclusions), readChunk)),
    {
      objectMode: false,
      highWaterMark: 4 * readChunk,
    },
  );
  source.once("error", (error) => count.destroy(error));
  // A reader that gives up (a failed upload or write) ends the walk, which closes its open file.
  count.once("close", () => source.destroy());
  return source.pipe(count);
}

const ignoreMissing = (error: unknown) => {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  throw error;
};

/**
 * Walks a folder depth first, sorted; the folder itself is resolved through the sandbox.
 * What `exclusions` leaves out is counted there and not yielded.
 */
async function* members(
  sandbox: Sandbox,
  folder: string,
  skipped: (place: string, why: string) => void,
  exclusions?: Exclusions,
): AsyncGenerator<Member> {
  const here = await sandbox.resolve(folder, { followFinal: false });
  // A folder removed while the walk ran is simply gone from the backup (not the root, though).
  const names = folder
    ? await fs.promises.readdir(here.path).catch(ignoreMissing)
    : await fs.promises.readdir(here.path);
  for (const name of (names ?? []).sort()) {
    const place = folder ? `${folder}/${name}` : name;
    const found = path.join(here.path, name);
    const stats = await fs.promises.lstat(found).catch(ignoreMissing);
    if (!stats) continue;
    if (exclusions?.excludes(place, stats.isDirectory())) {
      exclusions.leftOut += stats.isDirectory() ? await countFiles(found) : 1;
      continue;
    }
    if (stats.isDirectory()) {
      yield { place, path: found, kind: "directory", stats };
      yield* members(sandbox, place, skipped, exclusions);
    } else if (stats.isFile()) {
      yield { place, path: found, kind: "file", stats };
    } else if (stats.isSymbolicLink()) {
      const linkTarget = await storableLink(sandbox, place, found);
      if (linkTarget === undefined) skipped(place, "it is a link that leads out of the server folder");
      else yield { place, path: found, kind: "symlink", stats, linkTarget };
    }
    // FIFOs, sockets and devices are not server data.
  }
}

/**
 * The target to store for a link, or undefined when a restore could not make
 * it: the extractor (through the sandbox) makes only relative links that stay
 * inside the folder. An absolute link to a place inside is stored as the
 * relative link it amounts to; a link that leads out is left out.
 */
export async function storableLink(
  sandbox: Sandbox,
  place: string,
  found: string,
): Promise<string | undefined> {
  const text = await fs.promises.readlink(found);
  let resolved: Awaited<ReturnType<Sandbox["resolve"]>>;
  try {
    resolved = await sandbox.resolve(place);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
  if (!path.isAbsolute(text)) return text;
  const relative = path.posix.relative(path.posix.dirname(place), resolved.relative);
  return relative || ".";
}

/** The tar stream, as tar itself lays it out, built with tar's own header writer. */
async function* tarBlocks(
  sandbox: Sandbox,
  progress: BackupProgress,
  skipped: (place: string, why: string) => void,
  exclusions?: Exclusions,
): AsyncGenerator<Buffer> {
  yield* tarEntries(sandbox, progress, skipped, "", exclusions);
  yield Buffer.alloc(1024);
}

/**
 * A folder's entries without the archive's end, named `<prefix><place>`: a
 * transfer (transfers/transfer-export.ts) puts several folders in one tar.
 */
export async function* tarEntries(
  sandbox: Sandbox,
  progress: BackupProgress,
  skipped: (place: string, why: string) => void,
  prefix = "",
  exclusions?: Exclusions,
): AsyncGenerator<Buffer> {
  // tar (its header writer) loads with the first backup, not at start (issue 12).
  const tar: Tar = await import("tar");
  for await (const member of members(sandbox, "", skipped, exclusions)) {
    if (member.kind !== "file") {
      yield* headerBlocks(tar, member, member.stats, 0, prefix);
      continue;
    }
    let handle: fs.promises.FileHandle;
    try {
      handle = await sandbox.openResolvedRead(
        { path: member.path, relative: member.place, stats: member.stats },
        member.place,
      );
    } catch (error) {
      // Deleted since the folder was read: not in the backup.
      if (error instanceof ApiError && error.code === "ErrFileNotFound") continue;
      // Made a link, or moved out, since the folder was read: refused by the sandbox, left out.
      if (error instanceof ApiError && error.code === "ErrIllegalFileAccess") {
        skipped(member.place, "it changed into a link while the backup ran");
        continue;
      }
      throw error;
    }
    try {
      // The header promises the size seen by the walk; the bytes read are held to it below.
      const size = member.stats.size;
      yield* headerBlocks(tar, member, member.stats, size, prefix);
      let sent = 0;
      while (sent < size) {
        const length = Math.min(readChunk, size - sent);
        const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, sent);
        if (bytesRead === 0) break;
        sent += bytesRead;
        progress.read += bytesRead;
        yield bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
      }
      // A file that shrank since is padded to the size its header gave (one that grew is cut there).
      if (sent < size) yield Buffer.alloc(size - sent);
      const padding = (512 - (size % 512)) % 512;
      if (padding) yield Buffer.alloc(padding);
    } finally {
      await handle.close();
    }
  }
}

/**
 * Joins the small pieces (headers, padding, small files) into chunks of
 * about `size` bytes: each chunk is one trip to zlib's thread, and a tree of
 * many small files would otherwise make three tiny trips per file.
 */
async function* coalesce(pieces: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let bytes = 0;
  for await (const piece of pieces) {
    if (bytes === 0 && piece.length >= size) {
      yield piece;
      continue;
    }
    held.push(piece);
    bytes += piece.length;
    if (bytes >= size) {
      yield Buffer.concat(held, bytes);
      held = [];
      bytes = 0;
    }
  }
  if (bytes > 0) yield Buffer.concat(held, bytes);
}

/** Each chunk as a gzip member of its own, `gzipAtOnce` compressed at a time, in order. */
async function* gzipMembers(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const pending: Promise<Buffer>[] = [];
  for await (const chunk of chunks) {
    const member = gzipAsync(chunk, { chunkSize: gzipChunk });
    // Awaited in order below; a failure is not "unhandled" while an earlier one is awaited.
    member.catch(() => {});
    pending.push(member);
    if (pending.length >= gzipAtOnce) yield await (pending.shift() as Promise<Buffer>);
  }
  while (pending.length > 0) yield await (pending.shift() as Promise<Buffer>);
}

/** A header block, after a PAX header when the name or link target is too long for it. */
function* headerBlocks(
  tar: Tar,
  member: Member,
  stats: fs.Stats,
  size: number,
  prefix = "",
): Generator<Buffer> {
  const name = prefix + (member.kind === "directory" ? `${member.place}/` : member.place);
  const header = new tar.Header({
    path: name,
    mode: stats.mode & 0o7777,
    size,
    mtime: stats.mtime,
    type: member.kind === "file" ? "File" : member.kind === "directory" ? "Directory" : "SymbolicLink",
    linkpath: member.linkTarget,
    uid: 0,
    gid: 0,
  });
  const block = Buffer.alloc(512);
  if (header.encode(block, 0)) {
    yield new tar.Pax({ path: name, linkpath: member.linkTarget, mtime: stats.mtime }).encode();
  }
  yield block;
}
