import { type Dispatch, type SetStateAction, useEffect, useState } from "react";
import { isApiError } from "../api/errors";
import { type ItemListName, type ItemOf, type Known, lastKnownItem } from "./lastKnown";
import { backOnline } from "./network";

export interface KeptDetail<T> {
  /** The item as the panel answered it. */
  item: T | undefined;
  setItem: Dispatch<SetStateAction<T | undefined>>;
  /** No such item (or not for this account). */
  missing: boolean;
  setMissing: Dispatch<SetStateAction<boolean>>;
  /** Offline (issue 11): the kept list's copy of it with its age, or "none" if this device has none. */
  kept: Known<T> | "none" | undefined;
}

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
  const [item, setItem] = useState<ItemOf<K>>();
  const [missing, setMissing] = useState(false);
  // Tagged with its id: on the way to another item, the previous one's copy is not shown.
  const [keptFor, setKept] = useState<{ id: number; copy: Known<ItemOf<K>> | "none" }>();
  const kept = keptFor?.id === id ? keptFor.copy : undefined;
  const again = kept ? backOnline.value : 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` (back online) is a re-read trigger; `read` is the same call each render
  useEffect(() => {
    setItem(undefined);
    setMissing(false);
    if (!valid) {
      setMissing(true);
      return;
    }
    let live = true;
    read(id)
      .then((answer) => {
        if (!live) return;
        setKept(undefined);
        setItem(answer);
      })
      .catch((err) => {
        if (!live) return;
        if (isApiError(err) && err.status === undefined) {
          void lastKnownItem(list, id).then((copy) => live && setKept({ id, copy: copy ?? "none" }));
        } else setMissing(true);
      });
    return () => {
      live = false;
    };
  }, [list, id, valid, again]);

  return { item, setItem, missing, setMissing, kept };
}
