import { type Dispatch, type SetStateAction, useCallback, useEffect, useState } from "react";
import { isApiError } from "../api/errors";
import { useLoad } from "../app/useLoad";
import { type ItemListName, type ItemOf, type Known, lastKnownItem } from "./lastKnown";
import { backOnline } from "./network";

export interface KeptDetail<T> {
  /** The item as the panel answered it. */
  item: T | undefined;
  setItem: Dispatch<SetStateAction<T | undefined>>;
  /** No such item (or not for this account). */
  missing: boolean;
  setMissing: (missing: boolean) => void;
  /** Offline (issue 11): the kept list's copy of it with its age, or "none" if this device has none. */
  kept: Known<T> | "none" | undefined;
}

/** Tagged with its id: on the way to another item, the previous one's answer is not shown. */
type Answer<T> = { id: number } & ({ item: T } | { kept: Known<T> | "none" } | { missing: true });

/**
 * A detail page's item (a node, a user): read from the panel; when the panel gives no answer at
 * all, the copy its list kept on this device. Read again once the panel is back in reach.
 */
export function useKeptDetail<K extends ItemListName>(
  list: K,
  id: number,
  /** False when the id is not one (or the account may not look): missing at once. */
  valid: boolean,
  read: (id: number) => Promise<ItemOf<K>>,
): KeptDetail<ItemOf<K>> {
  type T = ItemOf<K>;
  const [goneId, setGoneId] = useState<number>();
  // Back in reach, the panel is asked again, but only while a kept copy is shown.
  const [showingKept, setShowingKept] = useState(false);
  const loaded = useLoad<Answer<T>>(
    valid &&
      (async () => {
        try {
          return { id, item: await read(id) };
        } catch (err) {
          // No answer at all (offline): the kept copy; any answer (404, 403): no such item.
          if (isApiError(err) && err.status === undefined) {
            return { id, kept: (await lastKnownItem(list, id)) ?? "none" };
          }
          return { id, missing: true };
        }
      }),
    [list, id, valid, showingKept ? backOnline.value : 0],
    // While the panel is asked again, the kept copy stays on screen.
    { keep: true },
  );
  const answer = loaded.data?.id === id ? loaded.data : undefined;
  const kept = answer && "kept" in answer ? answer.kept : undefined;
  useEffect(() => setShowingKept(kept !== undefined), [kept]);

  const { setData } = loaded;
  const setItem = useCallback<Dispatch<SetStateAction<T | undefined>>>(
    (next) =>
      setData((before) => {
        const shown = before?.id === id && "item" in before ? before.item : undefined;
        const item = typeof next === "function" ? (next as (b: T | undefined) => T | undefined)(shown) : next;
        return item === undefined ? undefined : { id, item };
      }),
    [setData, id],
  );
  const setMissing = useCallback((gone: boolean) => setGoneId(gone ? id : undefined), [id]);

  return {
    item: answer && "item" in answer ? answer.item : undefined,
    setItem,
    missing: !valid || goneId === id || (!!answer && "missing" in answer),
    setMissing,
    kept,
  };
}
