import type { ByteRange } from "../../contract/node/file-wire.ts";
import { ApiError } from "../../errors.ts";

/**
 * The one range of a `Range: bytes=…` header (RFC 9110 §14) a file of
 * `size` bytes can serve: `a-b`, `a-` or the suffix `-n`, the end clamped to
 * the file. A header that is not one well-formed byte range (another unit,
 * several ranges, `5-2`) is ignored, as the RFC allows, and the whole file
 * is sent; a range that starts past the end is 416 ErrRangeNotSatisfiable
 * with the size in its metadata (for `Content-Range: bytes *\/size`).
 */
export function byteRangeOf(header: string | undefined, size: number): ByteRange | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  const [first, last] = [match[1], match[2]];
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) throw unsatisfiable(size);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return undefined;
  if (start >= size) throw unsatisfiable(size);
  return { start, end: Math.min(end, size - 1) };
}

export const unsatisfiable = (size: number) =>
  new ApiError(416, "ErrRangeNotSatisfiable", "the range asked for lies past the end of the file", { size });
