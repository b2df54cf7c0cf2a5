import { navigate } from "wouter/use-browser-location";
import { hasScope } from "../state/scopes";
import { loggedIn } from "../state/session";
import { permitted } from "./access";
import { helpOpen } from "./helpOpen";
import { bindKeys } from "./hotkeyState";
import { globalHotkeys } from "./hotkeyTable";
import { routes } from "./routes";
import { closeIfNarrow } from "./sidebarState";

export const SEARCH_INPUT_ID = "global-search";

/** Bind every global hotkey once; permission is checked when a key fires, so scopes can change. */
export function bindGlobalHotkeys(): () => void {
  const map: Record<string, (e: KeyboardEvent) => void> = {};
  for (const entry of globalHotkeys(routes, true, () => true)) {
    if (entry.to) {
      const route = routes.find((r) => r.path === entry.to)!;
      map[entry.keys] = (e) => {
        if (!permitted(route.access, loggedIn.value, hasScope)) return;
        e.preventDefault();
        helpOpen.value = false;
        navigate(entry.to!);
      };
    } else if (entry.keys === "/") {
      map[entry.keys] = (e) => {
        const box = document.getElementById(SEARCH_INPUT_ID);
        if (!box) return;
        e.preventDefault();
        box.focus();
      };
    } else if (entry.keys === "Escape") {
      // Dialogs close themselves (native cancel); otherwise Escape closes an overlaying sidebar.
      map[entry.keys] = () => {
        if (!document.querySelector("dialog[open]")) closeIfNarrow();
      };
    } else if (entry.keys === "?" || entry.keys === "Shift+?") {
      map[entry.keys] = (e) => {
        e.preventDefault();
        helpOpen.value = !helpOpen.value;
      };
    }
  }
  return bindKeys(map);
}
