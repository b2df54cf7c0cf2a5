import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { IconName } from "../components/icons";
import { screenStringsReady } from "../i18n/activate";
import type { Access } from "./access";

// THE routes table (spec §2.1). Router guard, sidebar, hotkeys and hotkey help all derive from it.

export interface ScreenProps {
  params: Record<string, string>;
  route: RouteDef;
}

type ScreenModule = { default: ComponentType<ScreenProps> };
export type LazyScreen = LazyExoticComponent<ComponentType<ScreenProps>> & {
  preload: () => Promise<ScreenModule>;
};

/** A code-split screen that can also be fetched early (boot preloads the current route's). */
function screen(load: () => Promise<ScreenModule>): LazyScreen {
  return Object.assign(lazy(load), { preload: load });
}

/** A screen whose strings are in the screens' catalog: both are fetched together. */
function screenWithStrings(load: () => Promise<ScreenModule>): LazyScreen {
  return screen(() => Promise.all([load(), screenStringsReady()]).then(([module]) => module));
}

export interface RouteDef {
  path: string;
  access: Access;
  label: MessageDescriptor;
  screen?: LazyScreen;
  /** Shown in the sidebar (when permitted). */
  nav?: boolean;
  icon?: IconName;
  /** tinykeys sequence, e.g. "g s". */
  hotkey?: string;
}

const Login = screen(() => import("../screens/auth/Login"));
const Register = screen(() => import("../screens/auth/Register"));
const Invite = screen(() => import("../screens/auth/Invite"));
const Self = screenWithStrings(() => import("../screens/self/Self"));
const ServerList = screenWithStrings(() => import("../screens/servers/ServerList"));
const ServerCreate = screenWithStrings(() => import("../screens/servers/ServerCreate"));
const ServerView = screenWithStrings(() => import("../screens/servers/ServerView"));
const NodeList = screenWithStrings(() => import("../screens/nodes/NodeList"));
const NodeCreate = screenWithStrings(() => import("../screens/nodes/NodeCreate"));
const NodeView = screenWithStrings(() => import("../screens/nodes/NodeView"));
const TemplateList = screenWithStrings(() => import("../screens/templates/TemplateList"));
const TemplateCreate = screenWithStrings(() => import("../screens/templates/TemplateCreate"));
const TemplateView = screenWithStrings(() => import("../screens/templates/TemplateView"));
const UserList = screenWithStrings(() => import("../screens/users/UserList"));
const UserCreate = screenWithStrings(() => import("../screens/users/UserCreate"));
const UserView = screenWithStrings(() => import("../screens/users/UserView"));
const Settings = screenWithStrings(() => import("../screens/settings/Settings"));
const DatabaseHostsPage = screenWithStrings(() => import("../screens/databases/DatabaseHostsPage"));
const AccessPage = screenWithStrings(() => import("../screens/access/AccessPage"));
const ActivityPage = screenWithStrings(() => import("../screens/activity/ActivityPage"));

export const routes: readonly RouteDef[] = [
  { path: "/", access: "none", label: msg`Home` },
  { path: "/auth/login", access: "noAuth", label: msg`Login`, screen: Login },
  { path: "/auth/register", access: "noAuth", label: msg`Register`, screen: Register },
  { path: "/auth/invite", access: "noAuth", label: msg`Invite`, screen: Invite },
  {
    path: "/servers",
    access: "login",
    label: msg`Servers`,
    screen: ServerList,
    nav: true,
    icon: "server",
    hotkey: "g s",
  },
  { path: "/servers/new", access: "login", label: msg`Create server`, screen: ServerCreate },
  { path: "/servers/view/:id", access: "login", label: msg`Server`, screen: ServerView },
  {
    path: "/nodes",
    access: { scope: "nodes.view" },
    label: msg`Nodes`,
    screen: NodeList,
    nav: true,
    icon: "node",
    hotkey: "g n",
  },
  { path: "/nodes/new", access: "login", label: msg`Create node`, screen: NodeCreate },
  { path: "/nodes/view/:id", access: "login", label: msg`Node`, screen: NodeView },
  {
    path: "/users",
    access: { scope: "users.info.view" },
    label: msg`Users`,
    screen: UserList,
    nav: true,
    icon: "users",
    hotkey: "g u",
  },
  { path: "/users/new", access: "login", label: msg`Create user`, screen: UserCreate },
  { path: "/users/view/:id", access: "login", label: msg`User`, screen: UserView },
  {
    path: "/templates",
    access: { scope: "templates.view" },
    label: msg`Templates`,
    screen: TemplateList,
    nav: true,
    icon: "template",
    hotkey: "g t",
  },
  { path: "/templates/new", access: "login", label: msg`Create template`, screen: TemplateCreate },
  {
    path: "/templates/view/:repo/:id",
    access: "login",
    label: msg`Template`,
    screen: TemplateView,
  },
  {
    path: "/settings",
    access: { scope: "settings.edit" },
    label: msg`Settings`,
    screen: Settings,
    nav: true,
    icon: "settings",
    hotkey: "g c",
  },
  {
    path: "/database-hosts",
    access: { scope: "admin" },
    label: msg`Database hosts`,
    screen: DatabaseHostsPage,
    nav: true,
    icon: "database",
  },
  {
    path: "/access",
    access: { scope: "admin" },
    label: msg`Roles and presets`,
    screen: AccessPage,
    nav: true,
    icon: "users",
  },
  {
    path: "/activity",
    access: { scope: "admin" },
    label: msg`Activity`,
    screen: ActivityPage,
    nav: true,
    icon: "activity",
  },
  {
    path: "/self",
    access: "login",
    label: msg`Account`,
    screen: Self,
    nav: true,
    icon: "account",
    hotkey: "g a",
  },
];
