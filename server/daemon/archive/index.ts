/** Archives on a node: extracting (every entry through the sandbox) and making them, streamed. */
export { createArchive } from "./create.ts";
export { extractArchive, extractOpened, extractTarStream } from "./extract.ts";
export { zipSingleRoot } from "./extract-zip.ts";
export { type ArchiveFormat, archiveFormat } from "./formats.ts";
