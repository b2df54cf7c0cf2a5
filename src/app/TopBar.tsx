import { t } from "@lingui/core/macro";
import { lazy, Suspense } from "react";
import { Link } from "wouter";
import { Icon } from "../components/icons";
import { config } from "../state/config";
import { loggedIn, user } from "../state/session";
import { SEARCH_INPUT_ID } from "./globalHotkeys";
import { searchHandoff } from "./search/searchHandoff";
import { sidebarOpen, toggleSidebar } from "./sidebarState";
import "./topbar.css";

// md5 is only needed once signed in, so the avatar stays off the login critical path.
const Avatar = lazy(() => import("./Avatar"));
// So is the search with its groups and their API modules.
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

export function TopBar({ withSidebar }: { withSidebar: boolean }) {
  const brand = config.value.branding.name;
  const signedIn = loggedIn.value;
  const email = user.value?.email;
  return (
    <header className="topbar">
      {withSidebar && (
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
      )}
      <Link href="/" className="brand">
        {brand}
      </Link>
      <div className="topbar-fill">
        {signedIn && (
          <Suspense fallback={<SearchPlaceholder />}>
            <GlobalSearch />
          </Suspense>
        )}
      </div>
      {signedIn && (
        <Link href="/self" className="avatar-link" aria-label={t`My profile`} title={t`My profile`}>
          <Suspense fallback={<span className="avatar" />}>
            <Avatar email={email ?? ""} />
          </Suspense>
        </Link>
      )}
    </header>
  );
}
