import type { Stats } from "node:fs";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { sandboxErrors } from "./errors.ts";
import { insideOf } from "./lexical.ts";

/** Where a path really is inside a server folder, all symlinks on the way followed. */
export interface Location {
  /** Absolute real path (inside the real root). */
  path: string;
  /** The same, relative to the real root ("" for the root). */
  relative: string;
  /** lstat of the final component, when it exists. */
  stats?: Stats;
  /** When it does not exist: how many leading components of `relative` do (mkdir -p starts there). */
  existing?: number;
}

/** Symlinks followed in one resolution before it is refused, as Linux's ELOOP limit. */
const maxLinks = 40;

type FsRequest = { op: "lstat"; path: string } | { op: "readlink"; path: string };
type FsAnswer = { value: unknown } | { error: NodeJS.ErrnoException };

/**
 * Resolves a normalised root-relative path one component at a time, the way
 * the kernel would, but inside the root: a symlink's target is read and
 * walked in its place; a `..` (only symlink targets can hold one) may not
 * climb above the root; an absolute target must name a place inside the
 * root. So no symlink, however chained, leads out. With `followFinal` false
 * the last component is taken as it is (rename, remove, creating links).
 *
 * Written once as a generator of file-system requests so that the same
 * logic runs synchronously (CEL's file_exists) and asynchronously.
 */
function* walk(
  roots: { given: string; real: string },
  relative: string,
  followFinal: boolean,
  shown: string,
): Generator<FsRequest, Location, FsAnswer> {
  let pending = relative === "" ? [] : relative.split("/");
  let done: string[] = [];
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (done.length === 0)
        throw sandboxErrors.illegal(shown, "leads out of the server folder through a symlink");
      done.pop();
      continue;
    }
    const here = path.join(roots.real, ...done, name);
    const answer = yield { op: "lstat", path: here };
    if ("error" in answer) {
      if (answer.error.code === "ENAMETOOLONG") throw sandboxErrors.tooLong(shown, "is too long a path");
      if (answer.error.code !== "ENOENT" && answer.error.code !== "ENOTDIR") throw answer.error;
      // Nothing exists from here on, so no symlink follows, unless a symlink's
      // target text goes on with `..` (`missing/../x`): then the normalised
      // form is walked again from the root (the kernel would say ENOENT; a
      // place is still needed to create things at).
      const rest = path.posix.normalize([...done, name, ...pending].join("/"));
      if (rest === ".." || rest.startsWith("../")) {
        throw sandboxErrors.illegal(shown, "leads out of the server folder through a symlink");
      }
      if (pending.includes("..")) {
        pending = rest === "." ? [] : rest.split("/");
        done = [];
        continue;
      }
      const parts = rest === "." ? [] : rest.split("/");
      return { path: path.join(roots.real, ...parts), relative: parts.join("/"), existing: done.length };
    }
    const stats = answer.value as Stats;
    const last = pending.length === 0;
    if (stats.isSymbolicLink() && (followFinal || !last)) {
      if (++links > maxLinks) throw sandboxErrors.tooManyLinks(shown);
      const read = yield { op: "readlink", path: here };
      // The link was replaced or removed between lstat and readlink: someone is changing the path
      // as it is walked, which is refused like any other way out rather than failing raw.
      if ("error" in read) throw sandboxErrors.illegal(shown, "kept changing while it was followed");
      const target = String(read.value);
      if (path.isAbsolute(target)) {
        const inside = insideOf(roots.real, target) ?? insideOf(roots.given, target);
        if (inside === undefined)
          throw sandboxErrors.illegal(shown, "leads out of the server folder through a symlink");
        done = [];
        pending = [...(inside === "" ? [] : inside.split("/")), ...pending];
      } else {
        pending = [...target.split("/"), ...pending];
      }
      continue;
    }
    done.push(name);
    if (last) return { path: here, relative: done.join("/"), stats };
  }
  return { path: path.join(roots.real, ...done), relative: done.join("/"), stats: undefined };
}

function answerSync(request: FsRequest): FsAnswer {
  try {
    return { value: request.op === "lstat" ? fs.lstatSync(request.path) : fs.readlinkSync(request.path) };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  }
}

async function answer(request: FsRequest): Promise<FsAnswer> {
  try {
    return {
      value: request.op === "lstat" ? await fsp.lstat(request.path) : await fsp.readlink(request.path),
    };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  }
}

export function walkSync(
  roots: { given: string; real: string },
  relative: string,
  followFinal: boolean,
  shown: string,
): Location {
  const steps = walk(roots, relative, followFinal, shown);
  let step = steps.next();
  while (!step.done) step = steps.next(answerSync(step.value));
  return withRootStats(step.value, roots);
}

export async function walkAsync(
  roots: { given: string; real: string },
  relative: string,
  followFinal: boolean,
  shown: string,
): Promise<Location> {
  const steps = walk(roots, relative, followFinal, shown);
  let step = steps.next();
  while (!step.done) step = steps.next(await answer(step.value));
  return step.value.relative === "" ? { ...step.value, stats: await fsp.lstat(roots.real) } : step.value;
}

function withRootStats(location: Location, roots: { real: string }): Location {
  return location.relative === "" ? { ...location, stats: fs.lstatSync(roots.real) } : location;
}
