import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import { ApiError } from "../../errors.ts";
import { sandboxErrors } from "./errors.ts";
import { insideOf } from "./lexical.ts";
import type { Location } from "./walk.ts";

/**
 * Opening a place the walker found, checked again at open time.
 *
 * Between the walk and the open, something that can write in the server
 * folder (the game server itself, running as the daemon's user) could swap a
 * component for a symlink. Two guards close that gap for files:
 * - O_NOFOLLOW: a symlink swapped in as the last component makes open fail
 *   (ELOOP) instead of being followed;
 * - after opening, the kernel's own name for the open file
 *   (/proc/self/fd/N, or failing that a dev/inode comparison) must lie in the
 *   real root; a parent directory swapped for a link to elsewhere is caught
 *   here and the handle is closed before any byte is read or written.
 * Writing opens an existing file without O_TRUNC and truncates only after
 * the check, and creates a missing one with O_EXCL, so a refused open has
 * changed nothing, except that a file created outside by a lost race is
 * removed again (a window of microseconds in which an empty file existed).
 *
 * What these guards cannot cover without openat2(RESOLVE_BENEATH), which
 * Node does not offer: rename, unlink, mkdir and symlink creation act on path
 * names. mkdir and symlink are checked after the fact and undone; rename and
 * unlink re-walk immediately before acting, leaving a window of one system
 * call for a process racing inside the folder.
 */

// O_NONBLOCK: a FIFO planted under a file's name must not hang the open (no
// effect on regular files, which are the only kind accepted afterwards).
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

export interface Roots {
  given: string;
  real: string;
  /** Who new entries are given to (the server's own uid when the daemon is root), so the server can write them. */
  owner?: { uid: number; gid: number };
}

/** The real path of an open handle, or undefined when the system cannot tell (no /proc). */
async function handlePath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await fsp.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/** Refuses (and closes) a handle that does not point where the walker said, inside the root. */
export async function verifyHandle(handle: FileHandle, roots: Roots, location: Location, shown: string) {
  const real = await handlePath(handle);
  if (real !== undefined) {
    if (insideOf(roots.real, real) !== undefined) return real;
  } else {
    const [opened, expected] = await Promise.all([
      handle.stat(),
      fsp.stat(location.path).catch(() => undefined),
    ]);
    if (expected && opened.dev === expected.dev && opened.ino === expected.ino) return location.path;
  }
  await handle.close();
  throw sandboxErrors.illegal(shown, "was moved out of the server folder while it was opened");
}

function refusedOpen(error: NodeJS.ErrnoException, shown: string): Error {
  if (error.code === "ELOOP") return sandboxErrors.illegal(shown, "became a symlink while it was opened");
  if (error.code === "ENOENT") return sandboxErrors.notFound(shown);
  if (error.code === "EISDIR")
    return new ApiError(400, "ErrGeneric", `${JSON.stringify(shown)} is a folder`, undefined, {
      cause: error,
    });
  return error;
}

export async function openRead(location: Location, roots: Roots, shown: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(location.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    throw refusedOpen(error as NodeJS.ErrnoException, shown);
  }
  await verifyHandle(handle, roots, location, shown);
  await requireRegularFile(handle, shown);
  return handle;
}

/** A folder opened for reading its entries, and the path to read them by. */
export interface OpenedFolder {
  handle: FileHandle;
  /**
   * /proc/self/fd/N where the system has it: entries read by this name are the
   * checked folder's even if its path is swapped for a link afterwards.
   * Elsewhere the folder's path.
   */
  base: string;
}

/** Opens a folder the walker found, checked at open time as files are; the caller closes the handle. */
export async function openFolder(location: Location, roots: Roots, shown: string): Promise<OpenedFolder> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(location.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") {
      throw new ApiError(409, "ErrGeneric", `${JSON.stringify(shown)} changed while it was read`, undefined, {
        cause: error,
      });
    }
    throw refusedOpen(error as NodeJS.ErrnoException, shown);
  }
  await verifyHandle(handle, roots, location, shown);
  const byDescriptor = (await handlePath(handle)) !== undefined;
  return { handle, base: byDescriptor ? `/proc/self/fd/${handle.fd}` : location.path };
}

async function requireRegularFile(handle: FileHandle, shown: string): Promise<void> {
  if ((await handle.stat()).isFile()) return;
  await handle.close();
  throw new ApiError(400, "ErrGeneric", `${JSON.stringify(shown)} is not a regular file`);
}

export interface WriteOptions {
  /** Empty an existing file (default true); false keeps it, for appending or patching. */
  truncate?: boolean;
  /** Mode of a created file (default 0o644). */
  mode?: number;
  /**
   * Most likely not there yet (an extraction into a folder of its own): created
   * first, saving a failed open per file; opened as an existing one when it is there.
   */
  likelyNew?: boolean;
}

export async function openWrite(
  location: Location,
  roots: Roots,
  shown: string,
  options: WriteOptions = {},
): Promise<FileHandle> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let handle: FileHandle | undefined;
    let created = false;
    if (options.likelyNew && attempt === 0) {
      handle = await fsp
        .open(location.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, options.mode ?? 0o644)
        .catch((error: NodeJS.ErrnoException) => {
          if (error.code === "EEXIST") return undefined;
          throw refusedOpen(error, shown);
        });
      created = handle !== undefined;
    }
    if (!handle)
      try {
        handle = await fsp.open(location.path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENXIO")
          throw new ApiError(400, "ErrGeneric", `${JSON.stringify(shown)} is not a regular file`, undefined, {
            cause: error,
          });
        if (code !== "ENOENT") throw refusedOpen(error as NodeJS.ErrnoException, shown);
        try {
          handle = await fsp.open(
            location.path,
            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
            options.mode ?? 0o644,
          );
          created = true;
        } catch (second) {
          // Someone created it in between: open it as an existing file.
          if ((second as NodeJS.ErrnoException).code === "EEXIST") continue;
          throw refusedOpen(second as NodeJS.ErrnoException, shown);
        }
      }
    const real = await handlePath(handle);
    if (real !== undefined && insideOf(roots.real, real) === undefined) {
      await handle.close();
      if (created) await fsp.unlink(real).catch(() => {});
      throw sandboxErrors.illegal(shown, "was moved out of the server folder while it was opened");
    }
    if (real === undefined) await verifyHandle(handle, roots, location, shown);
    await requireRegularFile(handle, shown);
    if (!created && options.truncate !== false) await handle.truncate(0);
    if (created && roots.owner) await handle.chown(roots.owner.uid, roots.owner.gid);
    return handle;
  }
  throw sandboxErrors.illegal(shown, "kept changing while it was opened");
}

/**
 * Creates a new file holding `data` (small: it is in memory) in one go,
 * without leaving the thread: the guards of openWrite (O_EXCL and
 * O_NOFOLLOW, then the open file's real place checked inside the root before
 * a byte is written, the owner handed over). An extraction of many small
 * files spent most of its time waiting for libuv's threads, some twenty
 * hops a file; this makes it a few system calls, as `tar x` does. Answers
 * false, having written nothing, when the name is taken or the system cannot
 * tell a handle's place (no /proc): the caller then takes openWrite's way.
 */
export function createFileSync(
  location: Location,
  roots: Roots,
  shown: string,
  data: Uint8Array,
  mode: number,
  modified?: Date,
): boolean {
  let fd: number;
  try {
    fd = fs.openSync(location.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw refusedOpen(error as NodeJS.ErrnoException, shown);
  }
  let real: string | undefined;
  try {
    real = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // Left empty for openWrite, which opens it as an existing file and checks it its own way.
    fs.closeSync(fd);
    return false;
  }
  try {
    if (insideOf(roots.real, real) === undefined) {
      fs.unlinkSync(real);
      throw sandboxErrors.illegal(shown, "was moved out of the server folder while it was opened");
    }
    if (roots.owner) fs.fchownSync(fd, roots.owner.uid, roots.owner.gid);
    for (let written = 0; written < data.length; ) {
      written += fs.writeSync(fd, data, written, data.length - written);
    }
    // The mode again: the umask may have taken bits the archive gave.
    fs.fchmodSync(fd, mode);
    if (modified && !Number.isNaN(modified.getTime())) fs.futimesSync(fd, modified, modified);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}
