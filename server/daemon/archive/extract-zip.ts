import type { FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";
import type yauzl from "yauzl";
import { readStreamOf, sandboxErrors } from "../sandbox/index.ts";
import type { EntryWriter } from "./entry-writer.ts";

const symlinkType = 0o120000;
const typeMask = 0o170000;
/** A symlink entry's body is its target; anything longer is not a path. */
const maxLinkTarget = 4096;

/**
 * Reads a zip through an already opened (sandbox-checked) handle, one entry
 * at a time (lazyEntries), names decoded without yauzl's own checks so that
 * every name goes through the writer's sandbox instead. Sizes are checked
 * against the central directory as entries stream (yauzl's zip-bomb guard).
 */
export async function extractZip(
  handle: FileHandle,
  writer: EntryWriter,
  signal?: AbortSignal,
): Promise<number> {
  const { zip, yauzl } = await openZip(handle);
  let count = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const abort = () => reject(signal?.reason ?? new Error("aborted"));
      signal?.addEventListener("abort", abort, { once: true });
      zip.on("error", reject);
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        writeEntry(yauzl, zip, entry, writer)
          .then(() => {
            count++;
            if (!signal?.aborted) zip.readEntry();
          })
          .catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return count;
}

type Yauzl = typeof yauzl;
let loaded:
  | Promise<{ yauzl: Yauzl; Reader: new (handle: FileHandle) => yauzl.RandomAccessReader }>
  | undefined;

/** yauzl, loaded with the first zip (not at start: issue 12), and its reader of our handle. */
function load() {
  loaded ??= import("yauzl").then(({ default: yauzl }) => {
    /**
     * yauzl reading through our handle: its own fd reader would close the
     * descriptor when done, under the FileHandle that owns it.
     */
    class HandleReader extends yauzl.RandomAccessReader {
      constructor(private readonly handle: FileHandle) {
        super();
      }

      override _readStreamForRange(start: number, end: number): Readable {
        return readStreamOf(this.handle, { start, end: end - 1 });
      }

      override close(callback: (err: Error | null) => void): void {
        setImmediate(() => callback(null));
      }
    }
    return { yauzl, Reader: HandleReader };
  });
  return loaded;
}

async function openZip(handle: FileHandle): Promise<{ zip: yauzl.ZipFile; yauzl: Yauzl }> {
  const { yauzl, Reader } = await load();
  const size = (await handle.stat()).size;
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      new Reader(handle),
      size,
      { lazyEntries: true, decodeStrings: false, autoClose: false },
      (error, file) => (error ? reject(error) : resolve(file)),
    ),
  );
  return { zip, yauzl };
}

/**
 * The one folder every entry of a zip lies in, or undefined (files at the
 * top, or several folders). Reads only the central directory.
 */
export async function zipSingleRoot(handle: FileHandle): Promise<string | undefined> {
  const { zip, yauzl } = await openZip(handle);
  const tops = new Set<string>();
  let nested = true;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("error", reject);
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        const name = entryName(yauzl, entry);
        const slash = name.indexOf("/");
        if (slash === -1) nested = false;
        tops.add(slash === -1 ? name : name.slice(0, slash));
        zip.readEntry();
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return nested && tops.size === 1 ? [...tops][0] : undefined;
}

function entryName(yauzl: Yauzl, entry: yauzl.Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
}

async function writeEntry(
  yauzl: Yauzl,
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  writer: EntryWriter,
): Promise<void> {
  const name = entryName(yauzl, entry);
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  const mode = madeOnUnix ? (entry.externalFileAttributes >>> 16) & 0o177777 : 0;
  if (name.endsWith("/") || writer.stripped(name)) return writer.directory(name);
  if (entry.isEncrypted()) throw sandboxErrors.illegal(name, "is encrypted and cannot be extracted");
  const body = await openEntry(zip, entry);
  if ((mode & typeMask) === symlinkType) {
    const target = await readAll(body, maxLinkTarget, name);
    return writer.symlink(name, target);
  }
  return writer.file(name, mode & 0o777, body, entry.getLastModDate());
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

async function readAll(stream: Readable, limit: number, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > limit) {
      stream.destroy();
      throw sandboxErrors.illegal(name, "is a symlink entry with an over-long target");
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
