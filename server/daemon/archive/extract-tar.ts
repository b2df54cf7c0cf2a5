import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import type { ReadEntry } from "tar";
import { ApiError } from "../../errors.ts";
import type { EntryWriter } from "./entry-writer.ts";

export interface TarOptions {
  /** An external decompressor's argv (xz -dc …); gzip is read by the parser itself. */
  decompressor?: string[];
  signal?: AbortSignal;
  /** When given, only the entries it accepts (by their name in the archive) are written; the rest are read past. */
  only?: (name: string) => boolean;
}

/**
 * Reads a tar stream entry by entry and hands each to the writer: one entry
 * at a time, its body piped straight to its file, the source paused while
 * an entry is being written (the parser's backpressure), so memory stays
 * flat whatever the archive's size. Devices and FIFOs are skipped.
 */
export async function extractTar(
  source: Readable,
  writer: EntryWriter,
  options: TarOptions = {},
): Promise<number> {
  const input: Decompression = options.decompressor
    ? decompress(source, options.decompressor)
    : { stream: source };
  // tar loads with the first archive, not at start (issue 12).
  const { Parser } = await import("tar");
  const parser = new Parser({ strict: true });
  let count = 0;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;

  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      failure ??= error;
      // The entry being written stops there: nothing is made after the caller is told (and removes the folder).
      writer.stop();
      source.destroy();
      input.stream.destroy();
      reject(failure);
    };
    parser.on("entry", (entry: ReadEntry) => {
      chain = chain
        .then(async () => {
          if (failure || (options.only && !options.only(entry.path))) return entry.resume();
          await writeEntry(entry, writer);
          count++;
        })
        .catch((error) => {
          entry.resume();
          parser.abort(error as Error);
          fail(error);
        });
    });
    parser.on("error", fail);
    parser.on("abort", fail);
    input.stream.on("error", fail);
    source.on("error", fail);
    parser.on("end", () => chain.then(() => (failure ? reject(failure) : resolve()), fail));
    options.signal?.addEventListener("abort", () => fail(options.signal?.reason ?? new Error("aborted")), {
      once: true,
    });
  });
  input.stream.pipe(parser as unknown as NodeJS.WritableStream);
  try {
    await done;
  } catch (error) {
    // A decompressor that is missing or failed explains more than the parser's complaint.
    input.kill?.();
    throw (
      (await input.exited?.then(
        () => undefined,
        (why: unknown) => why,
      )) ?? error
    );
  }
  await input.exited;
  return count;
}

async function writeEntry(entry: ReadEntry, writer: EntryWriter): Promise<void> {
  switch (entry.type) {
    case "File":
    case "OldFile":
    case "ContiguousFile":
      return writer.file(entry.path, entry.mode, entry as unknown as Readable, entry.mtime, entry.size);
    case "Directory":
      entry.resume();
      return writer.directory(entry.path);
    case "SymbolicLink":
      entry.resume();
      return writer.symlink(entry.path, entry.linkpath ?? "");
    case "Link":
      entry.resume();
      return writer.hardlink(entry.path, entry.linkpath ?? "");
    default:
      entry.resume();
  }
}

interface Decompression {
  stream: Readable;
  exited?: Promise<void>;
  kill?(): void;
}

/** Pipes the source through an external decompressor; its failure (or absence) is reported by name. */
function decompress(source: Readable, argv: string[]): Decompression {
  const [program, ...args] = argv;
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 2000) stderr += chunk;
  });
  child.stdin.on("error", () => {});
  source.pipe(child.stdin);
  const exited = new Promise<void>((resolve, reject) => {
    child.once("error", (error) =>
      reject(
        new ApiError(500, "ErrGeneric", `cannot decompress: ${program} is not available (${error.message})`),
      ),
    );
    child.once("close", (code) =>
      code === 0
        ? resolve()
        : reject(new ApiError(500, "ErrGeneric", `${program} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
  exited.catch(() => {});
  return { stream: child.stdout, exited, kill: () => child.kill("SIGKILL") };
}
