import path from "node:path";
import type { PanelConfig } from "../config.ts";
import type { Db } from "../db/database.ts";
import { ensurePrivateDir } from "../secrets/private-files.ts";
import { SecretBox } from "../secrets/secret-box.ts";
import { Accounts } from "./accounts.ts";
import { Activity } from "./activity.ts";
import { DatabaseHosts } from "./databases/database-hosts.ts";
import { ServerDatabases } from "./databases/server-databases.ts";
import { InviteMailThrottle } from "./invite-mail-throttle.ts";
import { Invites } from "./invites.ts";
import { LiveConnections } from "./live-connections.ts";
import { LiveStatus } from "./live-status.ts";
import { accountWideLimits, LoginThrottle, registrationLimits } from "./login-throttle.ts";
import { Mailer } from "./mailer.ts";
import { ServerMods } from "./mods/server-mods.ts";
import { NodeActivityFeed } from "./node-activity.ts";
import { NodeAllocations } from "./node-allocations.ts";
import { type LocalNodeOptions, Nodes } from "./nodes.ts";
import { AlertWatch } from "./notifications/alert-watch.ts";
import { NotificationChannels } from "./notifications/channels.ts";
import { SignInDevices } from "./notifications/devices.ts";
import { Notifier } from "./notifications/notifier.ts";
import { VapidKeys } from "./notifications/vapid.ts";
import { OAuthClients } from "./oauth-clients.ts";
import { OwnAccount } from "./own-account.ts";
import { PanelChanges } from "./panel-changes.ts";
import { PermissionPresets } from "./permission-presets.ts";
import { Permissions } from "./permissions.ts";
import { Players } from "./players.ts";
import { Roles } from "./roles.ts";
import { ServerAllocations } from "./server-allocations.ts";
import { ServerClients } from "./server-clients.ts";
import { ServerLimits } from "./server-limits.ts";
import { ServerTransfers } from "./server-transfers.ts";
import { ServerUsers } from "./server-users.ts";
import { Servers } from "./servers.ts";
import { Sessions } from "./sessions.ts";
import { Settings } from "./settings.ts";
import { SftpAuth } from "./sftp-auth.ts";
import { panelIdOf, SharedState } from "./shared-state.ts";
import { SignIn } from "./sign-in.ts";
import { SignInChallenges } from "./sign-in-methods/challenges.ts";
import { OidcProviders } from "./sign-in-methods/oidc-providers.ts";
import { OidcSignIn } from "./sign-in-methods/oidc-sign-in.ts";
import { PasskeySignIn } from "./sign-in-methods/passkey-sign-in.ts";
import { Passkeys } from "./sign-in-methods/passkeys.ts";
import { SshKeys } from "./sign-in-methods/ssh-keys.ts";
import { Tasks } from "./tasks.ts";
import { TemplateRepos } from "./templates/template-repos.ts";
import { ThemeArchives } from "./themes.ts";
import { TwoFactor } from "./two-factor.ts";
import { UserAdmin } from "./user-admin.ts";
import { UserSettings } from "./user-settings.ts";

/** Every panel service, wired once; routes receive this. */
/** Where the services' warnings go (serve.ts: the app's log, one JSON line each). */
export interface PanelWarnings {
  write(msg: string): void;
}

export interface PanelServices {
  config: PanelConfig;
  warnings: PanelWarnings;
  db: Db;
  /** Who holds which scopes, globally and per server: the one reader and writer of that table. */
  permissions: Permissions;
  /** Presets of server scopes: the built-in four and administrators' own (issue 39). */
  permissionPresets: PermissionPresets;
  /** Roles: named sets of global scopes users hold besides their own (issue 39). */
  roles: Roles;
  accounts: Accounts;
  sessions: Sessions;
  clients: OAuthClients;
  settings: Settings;
  userSettings: UserSettings;
  signIn: SignIn;
  twoFactor: TwoFactor;
  ownAccount: OwnAccount;
  mailer: Mailer;
  nodes: Nodes;
  servers: Servers;
  /** How many extra port allocations and databases each server may hold. */
  serverLimits: ServerLimits;
  /** MySQL/MariaDB and PostgreSQL hosts, and the databases servers hold on them (issue 36). */
  databaseHosts: DatabaseHosts;
  serverDatabases: ServerDatabases;
  /** Nodes' pools of ports, and the allocations each server holds (issue 36). */
  nodeAllocations: NodeAllocations;
  serverAllocations: ServerAllocations;
  /** Mods and plugins of servers whose template names them (issue 37). */
  serverMods: ServerMods;
  /** Moving servers between nodes. */
  transfers: ServerTransfers;
  /** Who plays on a server, and the template's commands to kick, ban, whitelist and op (issue 37). */
  players: Players;
  templates: TemplateRepos;
  invites: Invites;
  serverUsers: ServerUsers;
  serverClients: ServerClients;
  /** The administration of other users (/api/users). */
  userAdmin: UserAdmin;
  /** Servers' tasks (kept and run by their nodes), saved and run with their authors' rights. */
  tasks: Tasks;
  /** Open console sockets and SFTP sessions, capped and closed when the rights behind them go. */
  live: LiveConnections;
  /** Status and stats pushed to /api/live sockets: one node stream per watched server. */
  liveStatus: LiveStatus;
  /** Who may use SFTP, for the local node's listener and remote nodes' password grant. */
  sftpAuth: SftpAuth;
  /** Users' public keys for SFTP (issue 39). */
  sshKeys: SshKeys;
  /** Users' passkeys, and signing in with them (issue 39). */
  passkeys: Passkeys;
  passkeySignIn: PasskeySignIn;
  /** OpenID Connect providers, and signing in and linking with them (issue 39). */
  oidcProviders: OidcProviders;
  oidcSignIn: OidcSignIn;
  /** Seals the secrets the panel keeps in its database (see secret-box.ts). */
  secrets: SecretBox;
  /** Theme archives: shipped with the web app and dropped into the data folder. */
  themes: ThemeArchives;
  /** Who changed what: the API's route hook and the nodes' own events write it. */
  activity: Activity;
  /** Records the nodes' own changes (SFTP, tasks); started by `outpost serve`. */
  nodeActivity: NodeActivityFeed;
  /** Alerts (issue 24): each user's channels, the one dispatcher, what triggers it. */
  notificationChannels: NotificationChannels;
  notifier: Notifier;
  alertWatch: AlertWatch;
  devices: SignInDevices;
  vapid: VapidKeys;
  /** Throttles, caps and job turns shared with every panel on the database. */
  shared: SharedState;
}

export function defaultPublicUrl(config: PanelConfig): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host}:${config.port}`;
}

/**
 * The services over one database. The local node, when the panel runs one, is
 * built by the composition root (server/compose.ts) and handed in as a
 * NodeClient: services never see the daemon engine behind it.
 */
export function createServices(config: PanelConfig, db: Db, localNode?: LocalNodeOptions): PanelServices {
  ensurePrivateDir(config.dataDir);
  // The services' warnings: Node's own until `outpost serve` hands them to the app's logger.
  const warnings: PanelWarnings = { write: (msg) => process.emitWarning(msg) };
  const warn = (msg: string) => warnings.write(msg);
  const secrets = SecretBox.forPanel(config.dataDir, config.secretKey);
  // What writes changed, for those who follow it (the alert watch).
  const changes = new PanelChanges();
  const permissions = new Permissions(db, changes);
  const accounts = new Accounts(db, secrets, permissions);
  const sessions = new Sessions(db);
  const settings = new Settings(db, { defaultPublicUrl: defaultPublicUrl(config) }, secrets);
  // Counted in the database: every panel on it counts the same attempts (shared-state.ts).
  const shared = new SharedState(db, panelIdOf(config.dataDir));
  const throttle = new LoginThrottle(shared, "sign-in");
  const sshKeys = new SshKeys(db);
  const challenges = new SignInChallenges(db);
  const passkeys = new Passkeys(db, challenges);
  const oidcProviders = new OidcProviders(db, secrets);
  // Invite links are guessed no more easily than passwords: the same throttle counts both.
  const invites = new Invites(db, accounts, permissions, sessions, throttle);
  const permissionPresets = new PermissionPresets(db);
  const nodes = new Nodes(db, settings, localNode, secrets);
  const mailer = new Mailer(settings);
  const twoFactor = new TwoFactor(db, accounts, settings, throttle, mailer);
  const templates = new TemplateRepos(db, path.join(config.dataDir, "cache", "template-repos"));
  const servers = new Servers(db, permissions, nodes, templates, shared, changes);
  const activity = new Activity(db, settings, warn);
  const serverLimits = new ServerLimits(db);
  const databaseHosts = new DatabaseHosts(db, secrets);
  const serverDatabases = new ServerDatabases(db, secrets, databaseHosts, serverLimits);
  // A server's databases go with it, before the node removes its files.
  servers.onDelete = (id) => serverDatabases.dropAll(id);
  const nodeAllocations = new NodeAllocations(db, nodes);
  const notificationChannels = new NotificationChannels(db, permissions, secrets);
  const vapid = new VapidKeys(db, secrets);
  const notifier = new Notifier(db, permissions, notificationChannels, mailer, settings, vapid, shared);
  const notify = notifier.notify.bind(notifier);
  const alertWatch = new AlertWatch(
    db,
    permissions,
    async (id) => (await servers.nodeOf(id)).live,
    notify,
    changes,
  );
  const tasks = new Tasks(db, permissions, servers, notify, warn, (entry) => activity.record(entry));
  // A task runs with its author's rights: when they shrink, the tasks beyond them stop (tasks.ts).
  const rightsShrank = (userId: number, serverId?: string) => void tasks.authorRightsShrank(userId, serverId);
  notificationChannels.onChange = () => alertWatch.refresh();
  nodes.onUnreachable = (nodeId) => notify({ type: "node.unreachable", nodeId });
  // Rights may have shrunk while a node could not be reached: its tasks are checked when it answers.
  nodes.onReachable = (nodeId) => void tasks.reviewNode(nodeId);
  const live = new LiveConnections(
    config.connectionLimits,
    shared,
    {
      allNodes: () => nodes.allClients(),
      nodeOf: (id) => servers.nodeOf(id),
      client: (id) => nodes.client(id),
    },
    warn,
  );
  // A deleted OAuth2 client's tokens end with it, and so does what was opened with them.
  const clients = new OAuthClients(db, (hashes) => {
    for (const hash of hashes) live.closeForSession(hash);
  });
  // A revoked session takes the sockets and SFTP sessions opened with it along.
  sessions.onRevoked((revoked) =>
    "sessionHash" in revoked
      ? live.closeForSession(revoked.sessionHash)
      : live.closeForUserExcept(revoked.userId, revoked.exceptHash, "your sessions were ended"),
  );
  const signIn = new SignIn(
    accounts,
    permissions,
    sessions,
    throttle,
    clients,
    settings,
    twoFactor,
    invites,
    new LoginThrottle(shared, "registration", registrationLimits(config.registrationsPerAddress)),
    new LoginThrottle(shared, "code", accountWideLimits()),
    mailer,
    (userId) => passkeys.count(userId),
  );
  // A role's change reaches every server of its users: what was opened with it reopens with what is left.
  const roles = new Roles(db, permissions, changes, (userId) => {
    live.closeForUser(userId, "your permissions changed");
    rightsShrank(userId);
  });
  return {
    config,
    warnings,
    db,
    permissions,
    permissionPresets,
    accounts,
    sessions,
    clients,
    settings,
    userSettings: new UserSettings(db),
    signIn,
    passkeys,
    passkeySignIn: new PasskeySignIn(passkeys, sessions, accounts, throttle, signIn),
    oidcProviders,
    oidcSignIn: new OidcSignIn(db, oidcProviders, challenges, accounts, throttle, signIn, roles),
    twoFactor,
    ownAccount: new OwnAccount(accounts, sessions, throttle, mailer, settings, clients),
    mailer,
    nodes,
    servers,
    serverLimits,
    databaseHosts,
    serverDatabases,
    nodeAllocations,
    serverAllocations: new ServerAllocations(db, serverLimits, servers),
    transfers: new ServerTransfers(db, permissions, nodes, settings, live, servers.ports, warn),
    players: new Players((id) => servers.nodeOf(id)),
    serverMods: new ServerMods(servers, settings),
    templates,
    sftpAuth: new SftpAuth(db, accounts, permissions, throttle, secrets, sshKeys, settings, (id) =>
      passkeys.count(id),
    ),
    sshKeys,
    invites,
    serverUsers: new ServerUsers(
      db,
      accounts,
      permissions,
      invites,
      settings,
      mailer,
      new InviteMailThrottle(shared),
      permissionPresets,
      (userId, serverId) => {
        live.closeForUserOnServer(userId, serverId);
        rightsShrank(userId, serverId);
      },
    ),
    serverClients: new ServerClients(db, clients),
    userAdmin: new UserAdmin(db, accounts, permissions, sessions, (userId, reason) => {
      live.closeForUser(userId, reason);
      rightsShrank(userId);
    }),
    roles,
    tasks,
    live,
    liveStatus: new LiveStatus(async (id) => (await servers.nodeOf(id)).live, warn),
    secrets,
    themes: new ThemeArchives({
      shipped: path.join(config.webDir, "theme"),
      dropped: path.join(config.dataDir, "themes"),
    }),
    activity,
    nodeActivity: new NodeActivityFeed(
      () => nodes.allClients(),
      activity,
      async (serverId) =>
        (await db.selectFrom("servers").select("node_id").where("id", "=", serverId).executeTakeFirst())
          ?.node_id,
      (data) => {
        // A scheduled run that failed is told at once, not when the task list is next read; the key
        // is the one tasks.ts uses, so a run seen both ways is told once.
        if (data.action !== "task.run" || data.ok || data.actor.kind !== "task") return;
        const { taskId, name } = data.actor;
        notify({
          type: "task.failed",
          serverId: data.serverId,
          detail: `${name || taskId}: ${String(data.details.message ?? "")}`,
          key: `${data.serverId}:${taskId}:${String(data.details.started ?? data.at)}`,
        });
      },
    ),
    notificationChannels,
    notifier,
    alertWatch,
    devices: new SignInDevices(db, notify),
    vapid,
    shared,
  };
}
