import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FileRead, NodeFiles } from "../../contract/node/file-wire.ts";
import { ApiError, errors } from "../../errors.ts";
import { uploadFailure } from "../../http/file-http.ts";
import { createArchive, extractArchive } from "../archive/index.ts";
import { readStreamOf, type Sandbox, sandboxErrors, writeStreamOf } from "../sandbox/index.ts";
import { newFolderBytes } from "../servers/disk-ledger.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { byteRangeOf } from "./byte-range.ts";
import { listFolder } from "./listing.ts";
import { tempUploadName } from "./temp-uploads.ts";

/**
 * A request's path read from the server's root: leading slashes are
 * dropped, so `/etc/passwd` names `etc/passwd` inside the server folder,
 * whichever node answers (the sandbox's own reading of absolute paths would
 * also accept the node's absolute path to the root, which differs by node).
 */
function fromRoot(userPath: string): string {
  return userPath.replace(/^\/+/, "");
}

/**
 * Copies a body into a sink. Unlike pipeline(), a failing sink does not
 * destroy the body: for an HTTP request that would cut the connection
 * before the error can be answered.
 */
function copyInto(body: Readable, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    // A body that failed before the copy began (the sender went away while the folder was made).
    if (body.destroyed) {
      reject(body.errored ?? Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      return;
    }
    const fail = (error: Error) => {
      body.unpipe(sink);
      sink.destroy();
      reject(error);
    };
    body.on("error", fail);
    // A sender that went away: some streams say so only by closing before their end.
    body.once("close", () => {
      if (!body.readableEnded) fail(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    });
    sink.once("error", fail);
    sink.once("finish", resolve);
    body.pipe(sink);
  });
}

/**
 * An fs error met while acting on a user's path, as the API tells it. A
 * path that changes under the walk (a link swapped or removed by something
 * running in the folder) fails with ENOENT, ENOTDIR or EINVAL from the
 * system: that is a missing or changed file, not a fault of the node.
 */
function fsFailure(error: unknown, shown: string): unknown {
  if (error instanceof ApiError) return error;
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
    case "ENOTDIR":
      return sandboxErrors.notFound(shown);
    case "EINVAL":
      return new ApiError(
        409,
        "ErrGeneric",
        `${JSON.stringify(shown)} changed while it was used`,
        undefined,
        {
          cause: error,
        },
      );
    case "EEXIST":
    case "ENOTEMPTY":
      return sandboxErrors.exists(shown, "already exists");
    case "EACCES":
    case "EPERM":
      return new ApiError(400, "ErrGeneric", `the node may not use ${JSON.stringify(shown)}`, undefined, {
        cause: error,
      });
    default:
      return error;
  }
}

/** Runs one file operation, its fs errors told as API errors. */
async function acting<T>(shown: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw fsFailure(error, shown);
  }
}

/**
 * The node's answers about a server's files (reference §12.8–§12.9), the
 * rules of the file manager written once: the local node calls them
 * in-process, a remote node's daemon behind its routes. Every path goes
 * through the server's sandbox.
 */
export class FileOps implements NodeFiles {
  constructor(
    readonly store: ServerStore,
    /** The node's OUTPOST_EXTRACT_MAX_RATIO, when set (extract-budget.ts). */
    private readonly extractMaxRatio?: number,
  ) {}

  private sandboxOf(id: string): Sandbox {
    return this.store.get(id).userFiles;
  }

  read(id: string, requested: string, range?: string): Promise<FileRead> {
    const userPath = fromRoot(requested);
    return acting(userPath, async () => {
      const sandbox = this.sandboxOf(id);
      const location = await sandbox.resolve(userPath);
      if (!location.stats) throw sandboxErrors.notFound(userPath);
      if (location.stats.isDirectory()) {
        return { kind: "folder", entries: await listFolder(sandbox, location, userPath) };
      }
      const handle = await sandbox.openResolvedRead(location, userPath);
      try {
        const size = (await handle.stat()).size;
        const byteRange = byteRangeOf(range, size);
        const body = readStreamOf(handle, byteRange ?? {});
        // The stream reads through the handle and never closes it: close it when the stream is done or dropped.
        body.once("close", () => void handle.close().catch(() => {}));
        return { kind: "file", name: path.posix.basename(location.relative), size, range: byteRange, body };
      } catch (error) {
        await handle.close();
        throw error;
      }
    });
  }

  async write(id: string, requested: string, body: Readable): Promise<void> {
    const userPath = fromRoot(requested);
    try {
      const server = this.store.get(id);
      const files = server.userFiles;
      const relative = files.relative(userPath);
      if (relative === "") throw sandboxErrors.illegal(userPath, "is the server folder itself");
      // Shares the server's room with its other writes in flight; a failed upload gives its bytes back.
      await server.disk.withBudget(async (budget) => {
        let temp: string | undefined;
        try {
          await files.mkdirp(path.posix.dirname(relative));
          // Written where the path really is: a link inside the root is written through, not replaced.
          const target = await files.resolve(relative);
          if (target.stats?.isDirectory()) throw sandboxErrors.exists(userPath, "is a folder");
          const folder = path.posix.dirname(target.relative);
          const name = tempUploadName();
          temp = folder === "." ? name : `${folder}/${name}`;
          const handle = await files.openWrite(temp);
          try {
            // A replaced file keeps its permissions (an executable start script stays executable).
            if (target.stats?.isFile()) await handle.chmod(target.stats.mode & 0o7777);
            const file = writeStreamOf(handle);
            if (!budget) await copyInto(body, file);
            else {
              // Counted on the way in: an upload stops with a clear error where the limit is
              // (the old file, if any, stays as it was). Both sides are awaited, so a
              // failing file (no space) fails the copy too.
              const limiter = budget.limiter();
              await Promise.all([copyInto(body, limiter), pipeline(limiter, file)]);
            }
            await handle.datasync();
          } finally {
            await handle.close();
          }
          // The old file is replaced in one step, only by a complete new one.
          await files.rename(temp, target.relative);
          temp = undefined;
        } catch (error) {
          // Removed before the budget ends, so its bytes are given back only once they are gone;
          // through the node's own sandbox, as a move that began meanwhile refuses the user's changes.
          if (temp) await server.sandbox.remove(temp).catch(() => {});
          throw error;
        }
      }, true);
    } catch (error) {
      // The rest of the body is read and dropped, so the answer can still reach the sender.
      if (!body.destroyed) body.resume();
      throw fsFailure(uploadFailure(error), userPath);
    }
  }

  makeFolder(id: string, requested: string, signal?: AbortSignal): Promise<void> {
    const userPath = fromRoot(requested);
    return acting(userPath, async () => {
      const server = this.store.get(id);
      // Each folder it may make takes room (held to the limit like a file; one per level at most).
      const levels = userPath.split("/").filter(Boolean).length;
      await server.disk.reserve(levels * newFolderBytes, () => server.userFiles.mkdirp(userPath, signal));
    });
  }

  remove(id: string, requested: string): Promise<void> {
    const userPath = fromRoot(requested);
    // Recursive, as the reference's DELETE; the sandbox refuses the root and
    // answers 404 for a missing path (the reference answers 500 ErrGeneric).
    return acting(userPath, async () => {
      const server = this.store.get(id);
      try {
        await server.userFiles.remove(userPath, { recursive: true });
      } finally {
        // Room made: a server stopped at its limit may start again right away.
        server.disk.forget();
      }
    });
  }

  move(id: string, requestedFrom: string, requestedTo: string): Promise<void> {
    const [from, to] = [fromRoot(requestedFrom), fromRoot(requestedTo)];
    return acting(from, async () => {
      const sandbox = this.sandboxOf(id);
      const source = await sandbox.resolve(from, { followFinal: false });
      if (!source.stats) throw sandboxErrors.notFound(from);
      if (source.relative === "") throw sandboxErrors.illegal(from, "is the server folder itself");
      const target = await sandbox.resolve(to, { followFinal: false });
      if (target.relative === "") throw sandboxErrors.illegal(to, "is the server folder itself");
      if (target.stats) throw sandboxErrors.exists(to, "already exists");
      if (target.relative.startsWith(`${source.relative}/`)) {
        throw new ApiError(400, "ErrGeneric", `cannot move ${JSON.stringify(from)} into itself`);
      }
      await sandbox.mkdirp(path.posix.dirname(target.relative));
      await sandbox.rename(source.relative, target.relative).catch((error) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EINVAL")
          throw new ApiError(
            400,
            "ErrGeneric",
            `cannot move ${JSON.stringify(from)} into itself`,
            undefined,
            {
              cause: error,
            },
          );
        if (code === "EEXIST" || code === "ENOTEMPTY") throw sandboxErrors.exists(to, "already exists");
        throw error;
      });
    });
  }

  archive(id: string, requested: string, requestedSources: readonly string[]): Promise<void> {
    const [destination, sources] = [fromRoot(requested), requestedSources.map(fromRoot)];
    return acting(destination, async () => {
      if (sources.length === 0) {
        throw errors.fieldRequired("files");
      }
      const sandbox = this.sandboxOf(id);
      const target = await sandbox.resolve(destination);
      if (target.relative === "") throw sandboxErrors.illegal(destination, "is the server folder itself");
      if (target.stats) throw sandboxErrors.exists(destination, "already exists");
      // Every source is checked before anything is written.
      for (const source of sources) {
        const location = await sandbox.resolve(source, { followFinal: false });
        if (!location.stats) throw sandboxErrors.notFound(source);
      }
      await this.store.get(id).disk.withBudget(async (budget) => {
        try {
          // Counted as it is written: the archive stops where the folder reaches its limit.
          await createArchive(sandbox, sources, target.relative, undefined, budget?.limiter());
        } catch (error) {
          // No half archive is left behind.
          await sandbox.remove(target.relative).catch(() => {});
          throw error;
        }
      }, true);
    });
  }

  extract(id: string, requested: string, destination?: string): Promise<void> {
    const source = fromRoot(requested);
    return acting(source, async () => {
      const sandbox = this.sandboxOf(id);
      const relative = sandbox.relative(source);
      const folder = destination === undefined ? path.posix.dirname(relative) : fromRoot(destination);
      // Counted as entries are written: extraction stops at the limit and takes back what it created.
      // What a failed extraction wrote for another reason stays counted (undoneOnFailure false).
      await this.store.get(id).disk.withBudget(
        (disk) =>
          extractArchive(sandbox, relative, folder === "." ? "" : folder, {
            disk,
            ratio: this.extractMaxRatio,
          }),
        false,
      );
    });
  }
}
