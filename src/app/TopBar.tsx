import { t } from "@lingui/core/macro";
import { lazy, Suspense, useEffect } from "react";
import { Link } from "wouter";
import { Icon } from "../components/icons";
import { lastKnown, remember } from "../offline/lastKnown";
import { user } from "../state/session";
import { SEARCH_INPUT_ID } from "./globalHotkeys";
import { searchHandoff } from "./search/searchHandoff";
import { sidebarOpen, toggleSidebar } from "./sidebarState";
import { TopBarFrame } from "./TopBarFrame";
import { useLoad } from "./useLoad";

// This bar is part of the signed-in shell (not loaded on the login page); the avatar (md5) and the
// search with its groups and their API modules load after it.
const Avatar = lazy(() => import("./Avatar"));
const GlobalSearch = lazy(() => import("./search/GlobalSearch"));

/** The box as it looks before the search code has loaded (it keeps its id for the / hotkey). */
function SearchPlaceholder() {
  return (
    <div className="search">
      <Icon name="search" size={20} />
      <input
        id={SEARCH_INPUT_ID}
        type="search"
        aria-label={t`Search`}
        placeholder={t`Search`}
        autoComplete="off"
        aria-keyshortcuts="/"
        onFocus={() => {
          searchHandoff.focused = true;
        }}
        onBlur={() => {
          searchHandoff.focused = false;
        }}
        onInput={(e) => {
          searchHandoff.text = e.currentTarget.value;
        }}
      />
      <span aria-hidden="true">
        <kbd>/</kbd>
      </span>
    </div>
  );
}

/** The account's e-mail: read from the panel, or the last one kept on this device (offline). */
function useAvatarEmail(): string | undefined {
  const fresh = user.value?.email;
  useEffect(() => {
    if (fresh) void remember("self", { email: fresh });
  }, [fresh]);
  const kept = useLoad(!fresh && (() => lastKnown("self")), [fresh]);
  return fresh ?? kept.data?.value.email;
}

/** The signed-in top bar: menu button, brand, search and avatar. */
export function TopBar({ withSidebar }: { withSidebar: boolean }) {
  const email = useAvatarEmail();
  const menu = withSidebar && (
    <button
      type="button"
      className="icon-btn"
      onClick={toggleSidebar}
      aria-label={t`Menu`}
      aria-expanded={sidebarOpen.value}
      aria-controls="sidebar"
    >
      <Icon name="menu" />
    </button>
  );
  return (
    <TopBarFrame lead={menu}>
      <div className="topbar-fill">
        <Suspense fallback={<SearchPlaceholder />}>
          <GlobalSearch />
        </Suspense>
      </div>
      <Link href="/self" className="avatar-link" aria-label={t`My profile`} title={t`My profile`}>
        <Suspense fallback={<span className="avatar" />}>
          <Avatar email={email ?? ""} />
        </Suspense>
      </Link>
    </TopBarFrame>
  );
}
