import { loggedIn } from "../state/session";
import { helpOpen } from "./helpOpen";
import { isTypingTarget } from "./typing";

/**
 * "?" toggles the hotkey help while signed out. Signed in, the global hotkeys of the signed-in
 * shell handle it (with the others), so the login page does not load the hotkey library.
 */
export function bindSignedOutHelpKey(): void {
  window.addEventListener("keydown", (e: KeyboardEvent) => {
    if (loggedIn.value || e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target))
      return;
    e.preventDefault();
    helpOpen.value = !helpOpen.value;
  });
}
