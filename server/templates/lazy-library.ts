/**
 * A library loaded on first use and handed out synchronously once it is:
 * code that must answer at once (a reader, a pattern compiler) awaits
 * `load()` first, and `get()` before that is a caller's mistake, thrown as
 * `notLoaded()` (never taken for bad input). A failed load is tried again
 * at the next `load()`.
 */
export function lazyLibrary<T>(
  load: () => Promise<T>,
  notLoaded: () => Error,
): { load(): Promise<T>; get(): T } {
  let library: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      loading ??= load().then(
        (loaded) => {
          library = loaded;
          return loaded;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    get() {
      if (library === undefined) throw notLoaded();
      return library;
    },
  };
}
