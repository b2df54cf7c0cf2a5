import type { FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";
import { ApiError } from "../../errors.ts";
import type { Sandbox } from "../sandbox/index.ts";
import { readStreamOf } from "../sandbox/index.ts";
import type { DiskBudget } from "../servers/disk-ledger.ts";
import { EntryWriter } from "./entry-writer.ts";
import { type BudgetOptions, ExtractBudget } from "./extract-budget.ts";
import { extractTar } from "./extract-tar.ts";
import { extractZip } from "./extract-zip.ts";
import { type ArchiveFormat, archiveFormat, decompressors } from "./formats.ts";

export interface ExtractOptions {
  signal?: AbortSignal;
  /** The format, when the name does not tell (a download without an extension). */
  format?: ArchiveFormat;
  /** The server's disk limit, counted as entries are written. */
  disk?: DiskBudget;
  /** How many times its size the archive may unpack to (the node's setting; extract-budget.ts). */
  ratio?: number;
}

const unknownFormat = (name: string) =>
  new ApiError(
    400,
    "ErrGeneric",
    `${JSON.stringify(name)} is not an archive this node can extract (zip, tar, tar.gz, tar.xz, tar.bz2, tar.zst)`,
  );

/**
 * Extracts an archive that lies in the server folder into a folder of it
 * (made when missing); every entry goes through the sandbox, and what it
 * unpacks to is bounded (extract-budget.ts). Returns the number of entries
 * written.
 */
export async function extractArchive(
  sandbox: Sandbox,
  source: string,
  destination: string,
  options: ExtractOptions = {},
): Promise<number> {
  const format = options.format ?? archiveFormat(source);
  if (!format) throw unknownFormat(source);
  const handle = await sandbox.openRead(source);
  try {
    return await extractOpened(handle, format, sandbox, destination, options.signal, 0, {
      disk: options.disk,
      ratio: options.ratio,
    });
  } finally {
    await handle.close();
  }
}

/**
 * Extracts an archive from a handle the caller opened (through whichever
 * sandbox it lies in: the server's, or a scratch folder for a download)
 * into a folder of `target`. The handle stays open.
 */
export async function extractOpened(
  handle: FileHandle,
  format: ArchiveFormat,
  target: Sandbox,
  destination: string,
  signal?: AbortSignal,
  stripComponents = 0,
  limits: Pick<BudgetOptions, "ratio" | "disk"> & { ownFolder?: boolean } = {},
): Promise<number> {
  const folder = await target.mkdirp(destination);
  const budget = await ExtractBudget.of(target.root, {
    archiveBytes: (await handle.stat()).size,
    ratio: limits.ratio,
    disk: limits.disk,
  });
  const writer = new EntryWriter(target, folder.relative, signal, stripComponents, budget, limits.ownFolder);
  return undoneWhenTooLarge(writer, () =>
    format === "zip"
      ? extractZip(handle, writer, signal)
      : extractTar(readStreamOf(handle), writer, { decompressor: decompressors[format], signal }),
  );
}

/** An extraction refused for its size takes back the files it created: no half-unpacked bomb is left. */
async function undoneWhenTooLarge(writer: EntryWriter, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (
      error instanceof ApiError &&
      ["ErrArchiveTooLarge", "ErrNoSpace", "ErrDiskLimit"].includes(error.code)
    ) {
      await writer.undo();
    }
    throw error;
  }
}

/**
 * Extracts a tar-family stream (a download, never stored whole) into a
 * sandboxed folder. Zip needs random access, so it is not accepted here.
 */
export async function extractTarStream(
  sandbox: Sandbox,
  source: Readable,
  format: Exclude<ArchiveFormat, "zip">,
  destination: string,
  /** ownFolder: the destination was made empty for this extraction alone (see EntryWriter). */
  options: { signal?: AbortSignal; ownFolder?: boolean } = {},
): Promise<number> {
  const target = await sandbox.mkdirp(destination);
  // Its size is not known before it has arrived: bounded by the free space only.
  const budget = await ExtractBudget.of(sandbox.root);
  const writer = new EntryWriter(sandbox, target.relative, options.signal, 0, budget, options.ownFolder);
  return undoneWhenTooLarge(writer, () =>
    extractTar(source, writer, { decompressor: decompressors[format], signal: options.signal }),
  );
}
