import path from "node:path";
import { sandboxErrors } from "./errors.ts";

/**
 * How a path that starts with `/` is read.
 * - "root-relative": the path is relative to the server's folder, as request
 *   paths and template paths are (the corpus's unturned template writes
 *   `/Servers/…/Commands.dat` meaning inside the server folder, and the Go
 *   panel reads it so). An absolute path naming the folder itself
 *   (`${rootDir}/x`) is taken as that place inside it.
 * - "refuse": archive entry names and symlink targets, where an absolute name
 *   is an attempt to write somewhere else.
 */
export type AbsolutePolicy = "root-relative" | "refuse";

const windowsAbsolute = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * The root-relative, normalised form of a user or template path ("" is the
 * root itself), decided on the text alone: NUL bytes, `..` that climbs out
 * and refused absolute forms throw ErrIllegalFileAccess. Symlinks are the
 * walker's business (walk.ts).
 */
export function lexicalRelative(
  roots: readonly string[],
  userPath: string,
  absolute: AbsolutePolicy,
): string {
  if (typeof userPath !== "string") throw sandboxErrors.illegal(String(userPath), "is not a path");
  if (userPath.includes("\0")) throw sandboxErrors.illegal(userPath, "holds a NUL byte");
  let text = userPath;
  if (absolute === "refuse") {
    if (text.startsWith("/") || windowsAbsolute.test(text)) {
      throw sandboxErrors.illegal(userPath, "is an absolute path");
    }
  } else {
    for (const root of roots) {
      const inRoot = insideOf(root, text);
      if (inRoot !== undefined) {
        text = inRoot;
        break;
      }
    }
    text = text.replace(/^\/+/, "");
  }
  const normalised = path.posix.normalize(text === "" ? "." : text);
  if (normalised === ".." || normalised.startsWith("../")) {
    throw sandboxErrors.illegal(userPath, "climbs out of the server folder");
  }
  return normalised === "." ? "" : normalised.replace(/\/+$/, "");
}

/** `target` relative to `dir` when it lies in it (or is it: ""); undefined when it is elsewhere. */
export function insideOf(dir: string, target: string): string | undefined {
  if (!path.isAbsolute(target)) return undefined;
  const relative = path.relative(dir, target);
  if (relative === "") return "";
  if (relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
    return undefined;
  return relative.split(path.sep).join("/");
}
