import { useCallback, useState } from "react";

/**
 * An editable copy of loaded data: `loaded` until the first edit. The edit belongs to `key`, so
 * another item (a new id) starts from its own loaded value.
 */
export function useDraft<T>(loaded: T, key: unknown): [T, (next: T) => void] {
  const [draft, setDraft] = useState<{ key: unknown; value: T }>();
  const value = draft && Object.is(draft.key, key) ? draft.value : loaded;
  const set = useCallback((next: T) => setDraft({ key, value: next }), [key]);
  return [value, set];
}
