import type { Readable } from "node:stream";
import { type Static, Type } from "typebox";

/**
 * Shapes that cross the panel↔node seam for a server's files (reference §12.8–§12.9).
 * LocalNode and RemoteNode both provide NodeFiles. Paths are the request's
 * text, URL-decoded once and nothing more; the node's sandbox decides what
 * they name.
 */

/**
 * One entry of a folder listing (reference §12.8), as the node answers it and
 * the API passes it on. Folders and symlinks carry only `name` and `isFile`;
 * files add `size`, `modifyTime` (unix seconds) and `extension` (with its dot,
 * absent when the name has none). The listing starts with
 * `{"name":"..","isFile":false}` except at the root, then folders, then files,
 * each group by name.
 */
export const FileEntry = Type.Object({
  name: Type.String(),
  isFile: Type.Boolean(),
  size: Type.Optional(Type.Integer()),
  modifyTime: Type.Optional(Type.Integer()),
  extension: Type.Optional(Type.String()),
});
export type FileEntry = Static<typeof FileEntry>;
export const FileListing = Type.Array(FileEntry);

/**
 * `POST …/file/{path}`: the reference answers 501; Outpost moves or renames
 * with it. `to` is a path from the server's root.
 */
export const FileActionBody = Type.Object({
  action: Type.String({ maxLength: 32 }),
  to: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type FileActionBody = Static<typeof FileActionBody>;

/** `POST …/archive/{destination}`: the paths (from the root) to put in it. */
export const ArchiveBody = Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10_000 });

export const ExtractQuery = Type.Object({ destination: Type.Optional(Type.String({ maxLength: 4096 })) });

/** `PUT …/file/{path}?folder` makes a folder instead of writing a file. */
export const WriteQuery = Type.Object({ folder: Type.Optional(Type.String()) });

/** Bytes `start` to `end` of a file, both inclusive (as HTTP counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file being read: its bytes (all, or the one range asked for) as a stream the caller must consume or destroy. */
export interface FileBytes {
  kind: "file";
  /** The file's own name, for Content-Disposition. */
  name: string;
  /** The whole file's size. */
  size: number;
  /** Present when only these bytes are sent (HTTP 206). */
  range?: ByteRange;
  body: Readable;
}

export interface FolderListing {
  kind: "folder";
  entries: FileEntry[];
}

export type FileRead = FileBytes | FolderListing;

/** What the panel asks of a node about a server's files. */
export interface NodeFiles {
  /**
   * A folder's listing, or a file's bytes. `range` is a Range header's
   * value: one satisfiable range is served alone, an unsatisfiable one is
   * 416 ErrRangeNotSatisfiable (metadata `size`), anything else is ignored.
   */
  read(id: string, path: string, range?: string): Promise<FileRead>;
  /**
   * Writes a file from a stream (parent folders made). The bytes go to a
   * temporary file beside it that replaces the file only once complete, so a
   * failed or aborted write leaves the old file as it was.
   */
  write(id: string, path: string, body: Readable): Promise<void>;
  /** mkdir -p; `signal` gives the work up (the client went away). */
  makeFolder(id: string, path: string, signal?: AbortSignal): Promise<void>;
  /** Removes a file, a link or a whole folder; the root itself is refused. */
  remove(id: string, path: string): Promise<void>;
  /** Renames or moves; refuses (ErrFileExists) when the destination exists. */
  move(id: string, from: string, to: string): Promise<void>;
  /** Makes a zip, tar or tar.gz (by the destination's name) of the given paths. */
  archive(id: string, destination: string, sources: readonly string[]): Promise<void>;
  /** Extracts an archive of the server into a folder (default: the archive's own). */
  extract(id: string, source: string, destination?: string): Promise<void>;
}
