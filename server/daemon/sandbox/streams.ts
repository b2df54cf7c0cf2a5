import type { FileHandle } from "node:fs/promises";
import { Readable, Writable } from "node:stream";

/**
 * Streams over a handle the caller keeps owning and closes. Node's own
 * file streams close the descriptor whenever they are destroyed (even with
 * autoClose:false), and a FileHandle's own streams hold a reference that
 * keeps handle.close() waiting; both break the "open through the sandbox,
 * close in finally" pattern. These read and write through the handle and
 * never close anything.
 */
const chunkSize = 64 * 1024;
/** Reads go 512 KiB at a time: a read per 64 KiB costs a download a third of its speed. */
const readSize = 512 * 1024;

/** Bytes `start` to `end` (inclusive, as fs streams count), read at their positions. */
export function readStreamOf(handle: FileHandle, range: { start?: number; end?: number } = {}): Readable {
  let position = range.start ?? 0;
  const stop = range.end === undefined ? Number.POSITIVE_INFINITY : range.end + 1;
  return new Readable({
    highWaterMark: readSize,
    read(size) {
      const length = Math.min(Math.max(size, readSize), stop - position);
      if (length <= 0) {
        this.push(null);
        return;
      }
      handle.read(Buffer.allocUnsafe(length), 0, length, position).then(
        ({ bytesRead, buffer }) => {
          if (bytesRead === 0) {
            this.push(null);
            return;
          }
          position += bytesRead;
          this.push(buffer.subarray(0, bytesRead));
        },
        (error) => this.destroy(error),
      );
    },
  });
}

/** Writes at the handle's current position, every byte of every chunk. */
export function writeStreamOf(handle: FileHandle): Writable {
  return new Writable({
    highWaterMark: chunkSize,
    write(chunk: Buffer, _encoding, done) {
      writeAll(handle, chunk).then(() => done(), done);
    },
  });
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}
