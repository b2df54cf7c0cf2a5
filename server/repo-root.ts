import path from "node:path";

/**
 * The repository (or installed package) folder. This module sits directly in
 * server/, and the ahead-of-time build bundles it into dist-server/: one level
 * below the root either way, so the same line is right for both.
 */
export const repoRoot = path.resolve(import.meta.dirname, "..");
