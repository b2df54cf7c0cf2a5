import { randomBytes } from "node:crypto";

/**
 * The temporary name an upload is written under before it replaces its
 * file. Short and fixed in length, so that any name the file system allows
 * (up to 255 bytes) can be uploaded; the final name is only the rename's.
 */
export function tempUploadName(): string {
  return `.outpost-upload-${randomBytes(6).toString("hex")}`;
}

const current = /^\.outpost-upload-[0-9a-f]{12}$/;
/** What earlier versions used: `.<name>.<12 hex>.upload`. */
const earlier = /^\..+\.[0-9a-f]{12}\.upload$/;

/**
 * An upload's temporary file: never listed (HTTP or SFTP), and removed when
 * the node starts (left by an upload cut short by a crash).
 */
export function isTempUpload(name: string): boolean {
  return current.test(name) || earlier.test(name);
}
