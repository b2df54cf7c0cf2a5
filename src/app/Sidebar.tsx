import { t } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { Link, useLocation } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { Icon } from "../components/icons";
import { hasScopeIn, scopes } from "../state/scopes";
import { endSession, loggedIn } from "../state/session";
import { LOGIN_PATH, permitted } from "./access";
import { keyCaps } from "./hotkeyTable";
import { routes } from "./routes";
import { closeIfNarrow, setMini, sidebarMini, sidebarOpen, wideWindow } from "./sidebarState";
import "./sidebar.css";

/** The panel's version (package.json, set by the build). */
const version = __OUTPOST_VERSION__;

// Lists the permitted nav routes of the table with icon, label and hotkey; mini toggle; logout.
export function Sidebar() {
  const { i18n } = useLingui();
  const [path] = useLocation();
  const held = scopes.value;
  const mini = sidebarMini.value && wideWindow.value;
  const open = sidebarOpen.value;
  const entries = routes.filter(
    (r) => r.nav && permitted(r.access, loggedIn.value, (s) => hasScopeIn(held, s)),
  );

  const logout = async () => {
    await endSession();
    navigate(LOGIN_PATH);
  };

  return (
    <aside
      className={`sidebar${mini ? " mini" : ""}${open ? " open" : ""}`}
      aria-hidden={open ? undefined : "true"}
      inert={open ? undefined : true}
      id="sidebar"
    >
      <nav aria-label={t`Main`}>
        <ul>
          {entries.map((r) => {
            const label = i18n._(r.label);
            const active = path === r.path || path.startsWith(`${r.path}/`);
            return (
              <li key={r.path}>
                <Link
                  href={r.path}
                  className={active ? "nav-item active" : "nav-item"}
                  aria-current={active ? "page" : undefined}
                  aria-keyshortcuts={r.hotkey}
                  title={mini ? label : undefined}
                  // Where the sidebar overlays the page, choosing a section reveals it.
                  onClick={closeIfNarrow}
                >
                  {r.icon && <Icon name={r.icon} />}
                  <span className="nav-label">{label}</span>
                  {r.hotkey && (
                    <span className="nav-keys" aria-hidden="true">
                      {keyCaps(r.hotkey).map((k) => (
                        <kbd key={k}>{k}</kbd>
                      ))}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="sidebar-foot">
        {wideWindow.value && (
          <button
            type="button"
            className="nav-item"
            onClick={() => setMini(!sidebarMini.value)}
            aria-label={mini ? t`Expand sidebar` : t`Collapse sidebar`}
            aria-pressed={mini}
            title={mini ? t`Expand sidebar` : t`Collapse sidebar`}
          >
            <Icon name={mini ? "chevronRight" : "chevronLeft"} className="flip-rtl" />
            <span className="nav-label">{t`Collapse`}</span>
          </button>
        )}
        <button type="button" className="nav-item" onClick={logout} title={mini ? t`Logout` : undefined}>
          <Icon name="logout" className="flip-rtl" />
          <span className="nav-label">{t`Logout`}</span>
        </button>
        {!mini && (
          <p className="sidebar-version" data-testid="panel-version">
            {t`Outpost version ${version}`}
          </p>
        )}
      </div>
    </aside>
  );
}
