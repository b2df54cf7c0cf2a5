import { useEffect } from "react";
import { bindGlobalHotkeys } from "./globalHotkeys";
import { Sidebar } from "./Sidebar";
import { closeIfNarrow, sidebarOpen, wideWindow } from "./sidebarState";
import { TopBar } from "./TopBar";

/**
 * What only a signed-in user sees around the screen: the full top bar, the sidebar with its scrim,
 * and the global hotkeys. Loaded with the first signed-in screen, so the login page does not carry it.
 */
export default function SignedInShell({ withSidebar }: { withSidebar: boolean }) {
  useEffect(() => bindGlobalHotkeys(), []);
  const open = withSidebar && sidebarOpen.value;
  return (
    <>
      <TopBar withSidebar={withSidebar} />
      {withSidebar && <Sidebar />}
      {/* A click in the main area closes an overlaying sidebar on a narrow window (spec §2.2). */}
      {open && !wideWindow.value && (
        // Pointer-only scrim; keyboard users close the sidebar with the menu button or Escape.
        <div className="scrim" aria-hidden="true" onClick={closeIfNarrow} />
      )}
    </>
  );
}
