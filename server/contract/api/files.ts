import { type Static, Type } from "typebox";

/**
 * One entry of a folder listing (reference §12.8). Folders and symlinks
 * carry only `name` and `isFile`; files add `size`, `modifyTime` (unix
 * seconds) and `extension` (with its dot, absent when the name has none).
 * The listing starts with `{"name":"..","isFile":false}` except at the
 * root, then folders, then files, each group by name.
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
 * `POST .../file/{path}`: the reference answers 501; Outpost moves or
 * renames with it. `to` is a path from the server's root.
 */
export const FileActionBody = Type.Object({
  action: Type.String({ maxLength: 32 }),
  to: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type FileActionBody = Static<typeof FileActionBody>;

/** `POST .../archive/{destination}`: the paths (from the root) to put in it. */
export const ArchiveBody = Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10_000 });

export const ExtractQuery = Type.Object({ destination: Type.Optional(Type.String({ maxLength: 4096 })) });

/** `PUT .../file/{path}?folder` makes a folder instead of writing a file. */
export const WriteQuery = Type.Object({ folder: Type.Optional(Type.String()) });
