import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from "react";

export interface Loaded<T> {
  /** The last answer (undefined before the first one, and after a key change unless `keep`). */
  data: T | undefined;
  /** What the last load threw; cleared by the next answer. */
  error: unknown;
  /** A load is under way. */
  loading: boolean;
  /** Loads again with the same key; what is shown stays until the answer. */
  reload: () => void;
  /** Changes the shown data in place (an optimistic toggle, a page appended, a poll's answer); clears `error`. */
  setData: Dispatch<SetStateAction<T | undefined>>;
}

export interface LoadOptions {
  /** Keep the previous data and error on screen while the next key loads (a search as you type). */
  keep?: boolean;
}

interface State<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
}

/**
 * Runs `load` on mount and whenever `deps` change; `false`/`undefined` instead of a function
 * loads nothing (not allowed, nothing to ask). An answer that comes after a key change, a reload
 * or unmount is dropped, and its signal is aborted so a fetch that takes one stops at once.
 */
export function useLoad<T>(
  load: ((signal: AbortSignal) => Promise<T>) | false | null | undefined,
  deps: readonly unknown[],
  { keep = false }: LoadOptions = {},
): Loaded<T> {
  const [state, setState] = useState<State<T>>(() => ({ loading: !!load }));
  const latest = useRef(load);
  latest.current = load;
  const generation = useRef(0);
  const running = useRef<AbortController>(undefined);

  const start = useCallback((keepShown: boolean) => {
    running.current?.abort();
    const mine = ++generation.current;
    const run = latest.current;
    if (!run) {
      running.current = undefined;
      setState((s) => (keepShown ? (s.loading ? { ...s, loading: false } : s) : { loading: false }));
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    setState((s) => (keepShown ? { ...s, loading: true } : { loading: true }));
    run(controller.signal).then(
      (data) => {
        if (mine === generation.current) setState({ data, loading: false });
      },
      (error: unknown) => {
        if (mine === generation.current) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's `deps` are the key; `load` is read fresh at each start
  useEffect(() => {
    start(keep);
    return () => {
      generation.current++;
      running.current?.abort();
    };
  }, [...deps, !!load]);

  const reload = useCallback(() => start(true), [start]);
  const setData = useCallback<Dispatch<SetStateAction<T | undefined>>>(
    (next) =>
      setState((s) => ({
        loading: s.loading,
        data: typeof next === "function" ? (next as (before: T | undefined) => T | undefined)(s.data) : next,
      })),
    [],
  );
  return { data: state.data, error: state.error, loading: state.loading, reload, setData };
}
