import type { MessageDescriptor } from "@lingui/core";
import { signal } from "@preact/signals-react";
import { useLayoutEffect } from "react";
import { tinykeys } from "tinykeys";
import { CHORD_TIMEOUT_MS } from "./hotkeyTable";
import { isTypingTarget } from "./typing";

/** Hotkeys a screen adds while it is shown; the help dialog lists them as contextual. */
export interface ContextHotkey {
  keys: string;
  label: MessageDescriptor;
  run: (e: KeyboardEvent) => void;
}

export const contextHotkeys = signal<readonly ContextHotkey[]>([]);

export function bindKeys(map: Record<string, (e: KeyboardEvent) => void>): () => void {
  const guarded: Record<string, (e: KeyboardEvent) => void> = {};
  for (const [keys, run] of Object.entries(map)) {
    guarded[keys] = (e) => {
      if (isTypingTarget(e.target)) return;
      run(e);
    };
  }
  return tinykeys(window, guarded, { timeout: CHORD_TIMEOUT_MS });
}

export function useContextHotkeys(list: readonly ContextHotkey[]): void {
  // Bound as the screen commits, not after the next paint: a key pressed right after a dialog
  // closes (Escape, then Backspace) reaches the screen's hotkeys instead of falling between.
  useLayoutEffect(() => {
    contextHotkeys.value = [...contextHotkeys.value, ...list];
    const unbind = bindKeys(Object.fromEntries(list.map((h) => [h.keys, h.run])));
    return () => {
      unbind();
      contextHotkeys.value = contextHotkeys.value.filter((h) => !list.includes(h));
    };
  }, [list]);
}
