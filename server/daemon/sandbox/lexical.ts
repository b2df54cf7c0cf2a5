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

/** Linux's NAME_MAX and PATH_MAX (less the root's own length, which is the node's business). */
export const maxNameBytes = 255;
const maxPathBytes = 4000;
/**
 * Folders one path may go down. Far deeper than real game files go, and it
 * bounds the work one request can ask for (each level is a few system calls).
 */
export const maxDepth = 128;

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
  // Told here, as a 400, rather than by the system as ENAMETOOLONG half way through a walk.
  if (Buffer.byteLength(userPath) > maxPathBytes) {
    throw sandboxErrors.tooLong(userPath, `is longer than ${maxPathBytes} bytes`);
  }
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
  const relative = normalised === "." ? "" : normalised.replace(/\/+$/, "");
  const parts = relative === "" ? [] : relative.split("/");
  if (parts.length > maxDepth) throw sandboxErrors.tooDeep(maxDepth);
  if (parts.some((part) => Buffer.byteLength(part) > maxNameBytes)) {
    throw sandboxErrors.tooLong(userPath, `holds a name longer than ${maxNameBytes} bytes`);
  }
  return relative;
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
