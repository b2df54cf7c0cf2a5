import { h, render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Loaded, LoadOptions } from "../../../src/app/useLoad";

// What users get: the build aliases React to preact/compat, so the hook runs under it here too.
vi.mock("react", async () => await import("preact/compat"));
const { useLoad } = await import("../../../src/app/useLoad");
const { useDraft } = await import("../../../src/app/useDraft");
const { pause } = await import("../../../src/app/pause");

/** A promise settled by the test, so answers can come in any order. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

type Loader<T> = ((signal: AbortSignal) => Promise<T>) | false;

/** Renders the hook in a component that draws nothing (no DOM needed) and keeps its last result. */
function renderLoad<T>(first: { load: Loader<T>; key: unknown }, options?: LoadOptions) {
  const container = { childNodes: [], firstChild: null, nodeType: 1 } as unknown as Element;
  const seen: { current: Loaded<T> } = { current: undefined as unknown as Loaded<T> };
  function Probe({ load, loadKey }: { load: Loader<T>; loadKey: unknown }) {
    seen.current = useLoad(load, [loadKey], options);
    return null;
  }
  const show = (props: { load: Loader<T>; key: unknown }) =>
    act(() => render(h(Probe, { load: props.load, loadKey: props.key }), container));
  mounted.push(() => render(null, container));
  return {
    seen,
    ready: show(first),
    rerender: show,
    unmount: () => act(() => render(null, container)),
  };
}
const mounted: (() => void)[] = [];
afterEach(() => {
  for (const unmount of mounted.splice(0)) unmount();
});

/** Lets settled promises run their callbacks and the resulting renders happen. */
const settle = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

describe("useLoad", () => {
  it("loads on mount: loading, then the data", async () => {
    const answer = deferred<string>();
    const { seen, ready } = renderLoad({ load: () => answer.promise, key: 1 });
    await ready;
    expect(seen.current).toMatchObject({ data: undefined, loading: true, error: undefined });
    answer.resolve("a");
    await settle();
    expect(seen.current).toMatchObject({ data: "a", loading: false, error: undefined });
  });

  it("drops the answer of an old key that comes after the new one, and aborts its signal", async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const signals: AbortSignal[] = [];
    const { seen, ready, rerender } = renderLoad({
      load: (signal) => {
        signals.push(signal);
        return first.promise;
      },
      key: 1,
    });
    await ready;
    await rerender({
      load: (signal) => {
        signals.push(signal);
        return second.promise;
      },
      key: 2,
    });
    expect(signals[0].aborted).toBe(true);
    expect(signals[1].aborted).toBe(false);
    second.resolve("two");
    await settle();
    first.resolve("one");
    await settle();
    expect(seen.current.data).toBe("two");
  });

  it("forgets the data on a key change, unless asked to keep it", async () => {
    for (const keep of [false, true]) {
      let next = deferred<string>();
      const { seen, ready, rerender } = renderLoad({ load: () => next.promise, key: "a" }, { keep });
      await ready;
      next.resolve("A");
      await settle();
      next = deferred<string>();
      await rerender({ load: () => next.promise, key: "b" });
      expect(seen.current.loading).toBe(true);
      expect(seen.current.data).toBe(keep ? "A" : undefined);
      next.resolve("B");
      await settle();
      expect(seen.current).toMatchObject({ data: "B", loading: false });
    }
  });

  it("reloads with the same key, keeping what is shown; a failure keeps it too and says why", async () => {
    let next = deferred<string>();
    let calls = 0;
    const load = () => {
      calls++;
      return next.promise;
    };
    const { seen, ready } = renderLoad({ load, key: 1 });
    await ready;
    next.resolve("first");
    await settle();
    next = deferred<string>();
    await act(() => seen.current.reload());
    expect(calls).toBe(2);
    expect(seen.current).toMatchObject({ data: "first", loading: true });
    const refused = new Error("refused");
    next.reject(refused);
    await settle();
    expect(seen.current).toMatchObject({ data: "first", loading: false, error: refused });
    next = deferred<string>();
    await act(() => seen.current.reload());
    next.resolve("again");
    await settle();
    expect(seen.current).toMatchObject({ data: "again", loading: false, error: undefined });
  });

  it("a reload makes the answer already on its way stale", async () => {
    const answers = [deferred<string>(), deferred<string>()];
    let call = 0;
    const { seen, ready } = renderLoad({ load: () => answers[call++].promise, key: 1 });
    await ready;
    await act(() => seen.current.reload());
    answers[1].resolve("new");
    await settle();
    answers[0].resolve("old");
    await settle();
    expect(seen.current.data).toBe("new");
  });

  it("loads nothing without a loader, and starts when one comes", async () => {
    let calls = 0;
    const { seen, ready, rerender } = renderLoad<string>({ load: false, key: 1 });
    await ready;
    expect(seen.current).toMatchObject({ data: undefined, loading: false });
    await rerender({
      load: async () => {
        calls++;
        return "now";
      },
      key: 1,
    });
    await settle();
    expect(calls).toBe(1);
    expect(seen.current).toMatchObject({ data: "now", loading: false });
  });

  it("aborts on unmount and never sets state afterwards", async () => {
    const answer = deferred<string>();
    let signal: AbortSignal | undefined;
    const { seen, ready, unmount } = renderLoad({
      load: (s) => {
        signal = s;
        return answer.promise;
      },
      key: 1,
    });
    await ready;
    const before = seen.current;
    await unmount();
    expect(signal?.aborted).toBe(true);
    answer.resolve("late");
    await settle();
    expect(seen.current).toBe(before);
  });

  it("setData changes the shown data in place", async () => {
    const { seen, ready } = renderLoad({ load: async () => [1, 2], key: 1 });
    await ready;
    await settle();
    await act(() => seen.current.setData((list) => [...(list ?? []), 3]));
    expect(seen.current.data).toEqual([1, 2, 3]);
  });
});

describe("useDraft", () => {
  it("shows the loaded value until an edit, and starts afresh for another key", async () => {
    const container = { childNodes: [], firstChild: null, nodeType: 1 } as unknown as Element;
    const seen: { current: [string, (v: string) => void] } = { current: ["", () => {}] };
    function Probe({ loaded, id }: { loaded: string; id: number }) {
      seen.current = useDraft(loaded, id);
      return null;
    }
    mounted.push(() => render(null, container));
    await act(() => render(h(Probe, { loaded: "saved", id: 1 }), container));
    expect(seen.current[0]).toBe("saved");
    await act(() => seen.current[1]("typed"));
    expect(seen.current[0]).toBe("typed");
    await act(() => render(h(Probe, { loaded: "saved again", id: 1 }), container));
    expect(seen.current[0]).toBe("typed");
    await act(() => render(h(Probe, { loaded: "other", id: 2 }), container));
    expect(seen.current[0]).toBe("other");
  });
});

describe("pause", () => {
  it("waits, or rejects at once when aborted (so no request follows a stale keystroke)", async () => {
    await expect(pause(1, new AbortController().signal)).resolves.toBeUndefined();
    const controller = new AbortController();
    const waiting = pause(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    await expect(pause(1, controller.signal)).rejects.toBeDefined();
  });
});
