/**
 * The file routes' shapes: the panel's file routes and the node's are the same
 * (reference §12.8–§12.9), declared once with the node's (server/contract/node/file-wire.ts).
 */
export {
  ArchiveBody,
  ExtractQuery,
  FileActionBody,
  FileEntry,
  WriteQuery,
} from "../node/file-wire.ts";
