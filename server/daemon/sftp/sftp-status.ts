import { ApiError } from "../../errors.ts";
import { diskLimitText } from "../servers/disk-quota.ts";
import { STATUS_CODE } from "./sftp-codes.ts";

/** A failure that is the client's doing, answered with its own status and text. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The answer to a change asked of a read-only session. */
export const readOnly = () =>
  new Refusal(
    STATUS_CODE.PERMISSION_DENIED,
    "read-only: changing files needs the server.files.edit permission",
  );

/**
 * The SFTP status and text a failed request answers: a refusal's own, an API error's in its
 * kind, a system error's by kind only (its message names real paths on the node); anything
 * else is logged and answered "failure".
 */
export function sftpStatusOf(event: string, error: unknown, log: (msg: string) => void): [number, string] {
  if (error instanceof Refusal) return [error.status, error.message];
  if (error instanceof ApiError) {
    if (error.code === "ErrDiskLimit")
      return [STATUS_CODE.FAILURE, diskLimitText(Number(error.metadata?.limit))];
    if (error.code === "ErrFileNotFound") return [STATUS_CODE.NO_SUCH_FILE, error.message];
    // Outside the folder, or a file an egg's file_denylist protects: the client says permission denied.
    if (
      error.code === "ErrIllegalFileAccess" ||
      error.code === "ErrFileDenied" ||
      error.code === "ErrServerTransferring"
    )
      return [STATUS_CODE.PERMISSION_DENIED, error.message];
    if (error.status < 500) return [STATUS_CODE.FAILURE, error.message];
  }
  // Node's own messages name real paths on the node: answer by kind only.
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return [STATUS_CODE.NO_SUCH_FILE, "no such file"];
    case "EACCES":
    case "EPERM":
      return [STATUS_CODE.PERMISSION_DENIED, "permission denied"];
    case "EEXIST":
      return [STATUS_CODE.FAILURE, "already exists"];
    case "ENOTEMPTY":
      return [STATUS_CODE.FAILURE, "the folder is not empty"];
    case "ENOTDIR":
      return [STATUS_CODE.FAILURE, "not a folder"];
    case "EISDIR":
      return [STATUS_CODE.FAILURE, "is a folder"];
    case "ENOSPC":
      return [STATUS_CODE.FAILURE, "no space left on the node"];
  }
  log(`SFTP ${event} failed: ${(error as Error)?.message ?? String(error)}`);
  return [STATUS_CODE.FAILURE, "failure"];
}
