import { ApiError, errors } from "../../errors.ts";

/**
 * The sandbox's refusals (reference api.md §7). The offending path goes in
 * the message, not in metadata: ErrIllegalFileAccess is a fixed code the
 * client translates without parameters, and the message is for logs and the
 * install console.
 */
export const sandboxErrors = {
  illegal: errors.illegalFileAccess,
  notFound: (path: string) => new ApiError(404, "ErrFileNotFound", `file not found: ${JSON.stringify(path)}`),
  exists: (path: string, why: string) => new ApiError(400, "ErrFileExists", `${JSON.stringify(path)} ${why}`),
  /** A name or path the file system cannot hold (NAME_MAX 255 bytes, PATH_MAX 4096), told before it is tried. */
  tooLong: (path: string, why: string) =>
    new ApiError(400, "ErrNameTooLong", `${JSON.stringify(path.slice(0, 200))} ${why}`),
  tooDeep: (max: number) =>
    new ApiError(400, "ErrPathTooDeep", "a path may hold at most ${max} folders", { max }),
  tooManyLinks: (path: string) =>
    new ApiError(
      400,
      "ErrIllegalFileAccess",
      `illegal file access: ${JSON.stringify(path)} has too many symlinks`,
    ),
};
