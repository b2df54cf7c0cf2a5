/**
 * Shapes that cross the panel↔node seam for a server's files (reference §12.8–§12.9).
 * LocalNode and RemoteNode both provide NodeFiles.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the file manager work (issue 5)
export interface NodeFiles {}
