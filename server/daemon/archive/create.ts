import fs from "node:fs";
import path from "node:path";
import { PassThrough, type Readable, type Transform } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { Header } from "tar";
import { ApiError } from "../../errors.ts";
import type { Sandbox } from "../sandbox/index.ts";
import { readStreamOf, writeStreamOf } from "../sandbox/index.ts";
import { archiveFormat } from "./formats.ts";

/** One thing to put in an archive, found by walking the sources through the sandbox. */
interface Member {
  /** Name inside the archive. */
  name: string;
  kind: "file" | "directory" | "symlink";
  stats: fs.Stats;
  /** Root-relative place, to open the file through the sandbox. */
  place: string;
  linkTarget?: string;
}

/**
 * Makes a zip, tar or tar.gz (by the destination's name) of files and
 * folders of a server (the `archive` step; the file manager's archive call
 * can use the same). Sources are walked and each file opened through the
 * sandbox, so a symlink is stored as a link and never followed out; the
 * archive is written as it is read, one file at a time. `limit`, when given,
 * sees every byte of the archive before it is written (a disk budget's limiter
 * stops it at the server's disk limit).
 */
export async function createArchive(
  sandbox: Sandbox,
  sources: readonly string[],
  destination: string,
  signal?: AbortSignal,
  limit?: Transform,
): Promise<number> {
  const format = archiveFormat(destination);
  if (format !== "zip" && format !== "tar" && format !== "tar.gz") {
    throw new ApiError(
      400,
      "ErrGeneric",
      `cannot make ${JSON.stringify(destination)}: use .zip, .tar or .tar.gz`,
    );
  }
  const target = sandbox.relative(destination);
  await sandbox.mkdirp(path.posix.dirname(target));
  const out = await sandbox.openWrite(target);
  let count = 0;
  try {
    const members = walkMembers(sandbox, sources, target);
    const sink = writeStreamOf(out);
    const counted = limit ?? new PassThrough();
    if (format === "zip") {
      // yazl and tar load with the first archive made, not at start (issue 12).
      const { default: yazl } = await import("yazl");
      const zip = new yazl.ZipFile();
      const done = pipeline(zip.outputStream as Readable, counted, sink, { signal });
      for await (const member of members) {
        count++;
        if (member.kind === "directory") zip.addEmptyDirectory(member.name, { mtime: member.stats.mtime });
        else if (member.kind === "file") {
          const handle = await sandbox.openRead(member.place);
          try {
            const stream = readStreamOf(handle);
            zip.addReadStream(stream, member.name, { mtime: member.stats.mtime, mode: member.stats.mode });
            await finished(stream);
          } finally {
            await handle.close();
          }
        }
        // Zip has no portable symlinks: they are left out.
      }
      zip.end();
      await done;
    } else {
      const parts = tarStream(sandbox, members, () => count++);
      if (format === "tar.gz") await pipeline(parts, createGzip(), counted, sink, { signal });
      else await pipeline(parts, counted, sink, { signal });
    }
  } finally {
    await out.close();
  }
  return count;
}

async function* walkMembers(
  sandbox: Sandbox,
  sources: readonly string[],
  exclude: string,
): AsyncGenerator<Member> {
  for (const source of sources) {
    const location = await sandbox.resolve(source, { followFinal: false });
    if (!location.stats)
      throw new ApiError(404, "ErrFileNotFound", `file not found: ${JSON.stringify(source)}`);
    yield* walkOne(sandbox, location.relative, path.posix.basename(location.relative) || "root", exclude);
  }
}

async function* walkOne(
  sandbox: Sandbox,
  place: string,
  name: string,
  exclude: string,
): AsyncGenerator<Member> {
  if (place === exclude) return;
  const location = await sandbox.resolve(place, { followFinal: false });
  const stats = location.stats;
  if (!stats) return;
  if (stats.isSymbolicLink()) {
    yield { name, kind: "symlink", stats, place, linkTarget: await fs.promises.readlink(location.path) };
  } else if (stats.isFile()) {
    yield { name, kind: "file", stats, place };
  } else if (stats.isDirectory()) {
    yield { name: `${name}/`, kind: "directory", stats, place };
    const entries = (await fs.promises.readdir(location.path)).sort();
    for (const entry of entries) {
      yield* walkOne(sandbox, place ? `${place}/${entry}` : entry, `${name}/${entry}`, exclude);
    }
  }
}

/** A tar stream built from tar's own header writer, each file's bytes read through the sandbox. */
async function* tarStream(sandbox: Sandbox, members: AsyncGenerator<Member>, counted: () => void) {
  const tar = await import("tar");
  for await (const member of members) {
    counted();
    const size = member.kind === "file" ? member.stats.size : 0;
    const header = new tar.Header({
      path: member.name,
      mode: member.stats.mode & 0o7777,
      size,
      mtime: member.stats.mtime,
      type: member.kind === "file" ? "File" : member.kind === "directory" ? "Directory" : "SymbolicLink",
      linkpath: member.linkTarget,
      uid: 0,
      gid: 0,
    });
    yield* headerBlocks(tar.Pax, header, member.name, member.linkTarget);
    if (member.kind !== "file") continue;
    const handle = await sandbox.openRead(member.place);
    let written = 0;
    try {
      for await (const chunk of readStreamOf(handle, { start: 0, end: size - 1 })) {
        written += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    } finally {
      await handle.close();
    }
    // A file that shrank while it was read is padded: the header already promised its size.
    if (written < size) yield Buffer.alloc(size - written);
    const padding = (512 - (size % 512)) % 512;
    if (padding) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(1024);
}

/** A long name or link target goes in a PAX header before the entry, as tar itself writes it. */
function* headerBlocks(
  Pax: typeof import("tar").Pax,
  header: Header,
  name: string,
  linkpath?: string,
): Generator<Buffer> {
  const block = Buffer.alloc(512);
  if (header.encode(block, 0)) yield new Pax({ path: name, linkpath, mtime: header.mtime }).encode();
  yield block;
}
