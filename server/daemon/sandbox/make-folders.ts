import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { sandboxErrors } from "./errors.ts";
import { insideOf } from "./lexical.ts";
import { openFolder, type Roots } from "./open.ts";
import type { Location } from "./walk.ts";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/**
 * Makes `names`, one inside the other, under a folder the walker found:
 * mkdir -p in one pass, linear in the depth.
 *
 * The folder is opened and checked to be inside the root once; each new
 * folder is then made and opened through its parent's descriptor
 * (/proc/self/fd/N/name, what mkdirat/openat would do), so no path is walked
 * again from the root, and a component swapped for a symlink meanwhile is
 * refused (O_NOFOLLOW), never followed. Without /proc each new folder's real
 * path is checked to be inside the root instead. `signal` stops the work
 * between two folders (a client that went away).
 */
export async function makeFolders(
  existing: Location,
  names: readonly string[],
  roots: Roots,
  shown: string,
  signal?: AbortSignal,
): Promise<void> {
  let folder = await openFolder(existing, roots, shown);
  try {
    for (const name of names) {
      signal?.throwIfAborted();
      const child = path.join(folder.base, name);
      let made = false;
      try {
        await fsp.mkdir(child);
        made = true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOTDIR") throw sandboxErrors.exists(shown, "has a file where a folder should be");
        if (code !== "EEXIST") throw error;
      }
      const next = await openChild(child, shown);
      // A folder the daemon makes goes to the server's own user, as the files it writes (see Roots.owner).
      if (made && roots.owner) await next.chown(roots.owner.uid, roots.owner.gid);
      const byDescriptor = folder.base.startsWith("/proc/self/fd/");
      await folder.handle.close();
      folder = { handle: next, base: byDescriptor ? `/proc/self/fd/${next.fd}` : child };
      if (!byDescriptor) {
        const real = await fsp.realpath(child);
        if (insideOf(roots.real, real) === undefined) {
          throw sandboxErrors.illegal(shown, "was moved out of the server folder while it was made");
        }
        folder.base = real;
      }
    }
  } finally {
    await folder.handle.close().catch(() => {});
  }
}

async function openChild(child: string, shown: string) {
  try {
    return await fsp.open(child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw sandboxErrors.illegal(shown, "became a symlink while it was made");
    if (code === "ENOTDIR") throw sandboxErrors.exists(shown, "exists and is not a folder");
    throw error;
  }
}
