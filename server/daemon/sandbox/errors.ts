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
  tooManyLinks: (path: string) =>
    new ApiError(
      400,
      "ErrIllegalFileAccess",
      `illegal file access: ${JSON.stringify(path)} has too many symlinks`,
    ),
};
