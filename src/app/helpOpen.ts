import { signal } from "@preact/signals-react";

/**
 * Whether the hotkey help dialog is shown. Kept apart from the hotkey bindings so the signed-out
 * page can open the dialog without loading them (they come with the signed-in shell).
 */
export const helpOpen = signal(false);
