/** Shapes that cross the panel↔node seam for the player-count query. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the query work (issue 5)
export interface NodeQuery {}
