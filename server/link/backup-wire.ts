/** Shapes that cross the panel↔node seam for backups (reference §12.19). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the backups work (issue 5)
export interface NodeBackups {}
