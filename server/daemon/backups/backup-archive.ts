import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { Header, Pax } from "tar";
import { ApiError } from "../../errors.ts";
import { readStreamOf, type Sandbox, writeStreamOf } from "../sandbox/index.ts";

/** What a backup being written has done so far, read by the node's status answers. */
export interface BackupProgress {
  /** Bytes of the server's files read. */
  read: number;
  /** Bytes of the archive written. */
  written: number;
}

/** One thing in the server folder that goes into the archive. */
interface Member {
  /** Root-relative place, also the entry's name (folders get a trailing slash). */
  place: string;
  kind: "file" | "directory" | "symlink";
  stats: fs.Stats;
  linkTarget?: string;
}

/**
 * Writes a tar.gz of a whole server folder to `target` (a path outside the
 * folder, in the node's backups folder). Every entry is found and opened
 * through the server's sandbox, one file at a time, so memory stays flat:
 * a symlink is stored as a link and never followed, and a file swapped for
 * a link to elsewhere while the walk runs is refused at open time. Entry
 * names are root-relative (`config/a.txt`), so a restore puts them back in
 * the root.
 *
 * archive/create.ts makes archives *inside* a server folder with names
 * under a top folder; a backup needs the archive outside the sandbox and
 * the root's content unprefixed, hence this walker of its own.
 *
 * The bytes go to the file as it is created (the caller names a temporary
 * file and renames it once this resolves); the file is synced before that.
 * `skipped` hears of what could not be stored (links out of the folder).
 */
export async function writeBackupArchive(
  sandbox: Sandbox,
  target: string,
  progress: BackupProgress,
  skipped: (place: string, why: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const handle = await fs.promises.open(target, "wx", 0o600);
  try {
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        progress.written += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(
      Readable.from(tarBlocks(sandbox, progress, skipped), { objectMode: false, highWaterMark: 1 }),
      createGzip(),
      count,
      writeStreamOf(handle),
      { signal },
    );
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Walks the folder depth first, sorted, through the sandbox. */
async function* members(
  sandbox: Sandbox,
  folder: string,
  skipped: (place: string, why: string) => void,
): AsyncGenerator<Member> {
  let names: string[];
  try {
    names = (await fs.promises.readdir((await sandbox.resolve(folder, { followFinal: false })).path)).sort();
  } catch (error) {
    // A folder removed while the walk ran is simply gone from the backup (not the root, though).
    if (folder && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const name of names) {
    const place = folder ? `${folder}/${name}` : name;
    const location = await sandbox.resolve(place, { followFinal: false });
    const stats = location.stats;
    if (!stats) continue;
    if (stats.isDirectory()) {
      yield { place, kind: "directory", stats };
      yield* members(sandbox, place, skipped);
    } else if (stats.isFile()) {
      yield { place, kind: "file", stats };
    } else if (stats.isSymbolicLink()) {
      const linkTarget = await storableLink(sandbox, place, location.path);
      if (linkTarget === undefined) skipped(place, "it is a link that leads out of the server folder");
      else yield { place, kind: "symlink", stats, linkTarget };
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
async function storableLink(sandbox: Sandbox, place: string, real: string): Promise<string | undefined> {
  const text = await fs.promises.readlink(real);
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
): AsyncGenerator<Buffer> {
  for await (const member of members(sandbox, "", skipped)) {
    if (member.kind !== "file") {
      yield* headerBlocks(member, 0);
      continue;
    }
    let handle: fs.promises.FileHandle;
    try {
      handle = await sandbox.openRead(member.place);
    } catch (error) {
      // Deleted since the folder was read: not in the backup.
      if (error instanceof ApiError && error.code === "ErrFileNotFound") continue;
      throw error;
    }
    try {
      // The size is taken from the open file: the header must promise what follows.
      const size = (await handle.stat()).size;
      yield* headerBlocks(member, size);
      let sent = 0;
      if (size > 0) {
        for await (const chunk of readStreamOf(handle, { start: 0, end: size - 1 })) {
          sent += (chunk as Buffer).length;
          progress.read += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      }
      // A file that shrank while it was read is padded to the size its header gave.
      if (sent < size) yield Buffer.alloc(size - sent);
      const padding = (512 - (size % 512)) % 512;
      if (padding) yield Buffer.alloc(padding);
    } finally {
      await handle.close();
    }
  }
  yield Buffer.alloc(1024);
}

/** A header block, after a PAX header when the name or link target is too long for it. */
function* headerBlocks(member: Member, size: number): Generator<Buffer> {
  const name = member.kind === "directory" ? `${member.place}/` : member.place;
  const header = new Header({
    path: name,
    mode: member.stats.mode & 0o7777,
    size,
    mtime: member.stats.mtime,
    type: member.kind === "file" ? "File" : member.kind === "directory" ? "Directory" : "SymbolicLink",
    linkpath: member.linkTarget,
    uid: 0,
    gid: 0,
  });
  const block = Buffer.alloc(512);
  if (header.encode(block, 0)) {
    yield new Pax({ path: name, linkpath: member.linkTarget, mtime: member.stats.mtime }).encode();
  }
  yield block;
}
