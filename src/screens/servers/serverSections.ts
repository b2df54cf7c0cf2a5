import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { type ComponentType, lazy } from "react";
import { ConsoleSection } from "./console/ConsoleSection";
import type { SectionProps } from "./sectionProps";
import type { ServerCan } from "./serverScopes";

// THE server view's sections (spec §2.3), in order. The tab strip, the panels, the number hotkeys
// and the hotkey help all derive from it, as the sidebar does from src/app/routes.ts.

export interface ServerSection {
  /** The tab's URL hash (#files) and the tab's and panel's element ids. */
  id: string;
  label: MessageDescriptor;
  /** Whether the section shows on a server where the user holds these scopes (the panel checks the same). */
  shows: (can: ServerCan) => boolean;
  screen: ComponentType<SectionProps>;
  /**
   * A key of its own, beside its number: it opens the section and puts the cursor in the field
   * `focus` selects (only while that field is on the page). Numbers 1–9 go to the sections shown,
   * in this order, so they are not listed here.
   */
  hotkey?: { keys: string; label: MessageDescriptor; focus: string };
}

// Sections other than the console load with their first opening: the server view's chunk stays
// small. The console is in it: it mounts with the view, to collect output from the start.
const SettingsSection = lazy(() => import("./settings/SettingsSection"));
const AdminSection = lazy(() => import("./admin/AdminSection"));
const UsersSection = lazy(() => import("./users/UsersSection"));
const SftpSection = lazy(() => import("./sftp/SftpSection"));
const FilesSection = lazy(() => import("./files/FilesSection"));
const BackupsSection = lazy(() => import("./backups/BackupsSection"));
const DatabasesSection = lazy(() => import("./databases/DatabasesSection"));
const NetworkSection = lazy(() => import("./network/NetworkSection"));
const ModsSection = lazy(() => import("./mods/ModsSection"));
const TasksSection = lazy(() => import("./tasks/TasksSection"));
const ClientsSection = lazy(() => import("./clients/ClientsSection"));
const QuerySection = lazy(() => import("./query/QuerySection"));
const StatsSection = lazy(() => import("./stats/StatsSection"));
const ActivitySection = lazy(() => import("./activity/ActivitySection"));

export const serverSections: readonly ServerSection[] = [
  {
    id: "console",
    label: msg`Console`,
    shows: (can) => can("server.console"),
    screen: ConsoleSection,
    hotkey: { keys: "i", label: msg`Type a command`, focus: '[data-testid="console-input"]' },
  },
  {
    id: "settings",
    label: msg`Settings`,
    shows: (can) => can("server.data.view") || can("server.flags.view") || can("server.name.edit"),
    screen: SettingsSection,
  },
  {
    id: "admin",
    label: msg`Admin`,
    shows: (can) => can("server.definition.view") || can("server.delete"),
    screen: AdminSection,
  },
  { id: "users", label: msg`Users`, shows: (can) => can("server.users.view"), screen: UsersSection },
  {
    id: "sftp",
    label: msg`SFTP`,
    // SFTP signs in only with files.view too (server/panel/sftp-auth.ts).
    shows: (can) => can("server.sftp") && can("server.files.view"),
    screen: SftpSection,
  },
  { id: "files", label: msg`Files`, shows: (can) => can("server.files.view"), screen: FilesSection },
  { id: "backups", label: msg`Backups`, shows: (can) => can("server.backup.view"), screen: BackupsSection },
  {
    id: "network",
    label: msg`Network`,
    shows: (can) => can("server.allocations.view"),
    screen: NetworkSection,
  },
  {
    id: "databases",
    label: msg`Databases`,
    shows: (can) => can("server.databases.view"),
    screen: DatabasesSection,
  },
  { id: "mods", label: msg`Mods`, shows: (can) => can("server.mods.view"), screen: ModsSection },
  { id: "tasks", label: msg`Tasks`, shows: (can) => can("server.tasks.view"), screen: TasksSection },
  {
    id: "clients",
    label: msg`OAuth clients`,
    shows: (can) => can("server.clients.view"),
    screen: ClientsSection,
  },
  { id: "query", label: msg`Players`, shows: (can) => can("server.stats"), screen: QuerySection },
  { id: "stats", label: msg`Statistics`, shows: (can) => can("server.stats"), screen: StatsSection },
  {
    id: "activity",
    label: msg`Activity`,
    shows: (can) => can("server.activity.view"),
    screen: ActivitySection,
  },
];

/** The sections a user sees on one server, in order. */
export const shownSections = (can: ServerCan): ServerSection[] => serverSections.filter((s) => s.shows(can));
