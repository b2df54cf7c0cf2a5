import type { RE2JS } from "re2js";

/**
 * re2js (RE2's JavaScript port: 0.6 MiB of heap once loaded), loaded on first
 * use: with the first task that has a console pattern, or the first install
 * step that alters a file by regular expression, not with an idle node. Code
 * that compiles a pattern synchronously (a console matcher) awaits loadRe2()
 * before; re2() then hands the loaded class out.
 */
let library: typeof RE2JS | undefined;
let loading: Promise<typeof RE2JS> | undefined;

export function loadRe2(): Promise<typeof RE2JS> {
  loading ??= import("re2js").then(
    (module) => {
      library = module.RE2JS;
      return library;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Thrown when a pattern is compiled before loadRe2() finished: a caller's mistake, never a pattern's. */
export class Re2NotLoaded extends Error {}

export function re2(): typeof RE2JS {
  if (!library) throw new Re2NotLoaded("re2js is not loaded: await loadRe2() before compiling a pattern");
  return library;
}
