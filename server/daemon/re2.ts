import type { RE2JS } from "re2js";
import { lazyLibrary } from "../templates/lazy-library.ts";

/** Thrown when a pattern is compiled before loadRe2() finished: a caller's mistake, never a pattern's. */
export class Re2NotLoaded extends Error {}

/**
 * re2js (RE2's JavaScript port: 0.6 MiB of heap once loaded), loaded on first
 * use: with the first task that has a console pattern, or the first install
 * step that alters a file by regular expression, not with an idle node. Code
 * that compiles a pattern synchronously (a console matcher) awaits loadRe2()
 * before; re2() then hands the loaded class out.
 */
const re2js = lazyLibrary(
  () => import("re2js").then((module) => module.RE2JS),
  () => new Re2NotLoaded("re2js is not loaded: await loadRe2() before compiling a pattern"),
);

export function loadRe2(): Promise<typeof RE2JS> {
  return re2js.load();
}

export function re2(): typeof RE2JS {
  return re2js.get();
}
