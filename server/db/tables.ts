import type { Generated } from "kysely";
import type {
  OidcLinkTable,
  OidcProviderTable,
  PasskeyTable,
  SignInChallengeTable,
  SshKeyTable,
} from "./sign-in-tables.ts";

/** Row types of every table. Times are Unix milliseconds; booleans are 0/1 on both databases. */
export interface UserTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  otp_secret: string | null;
  otp_active: number;
  /** The TOTP time step last accepted, so a code cannot be used twice. */
  otp_last_step: number;
  /** A secret being enrolled, until a code from it confirms it (then it moves to otp_secret). */
  otp_pending_secret: string | null;
  created_at: number;
}

/** One unused recovery code of a user, as its SHA-256. */
export interface OtpRecoveryCodeTable {
  user_id: number;
  code_hash: string;
  created_at: number;
}

/** Scopes of a user: the global row has server_id ''; one row per server otherwise. */
export interface PermissionTable {
  user_id: number;
  server_id: string;
  scopes: string;
}

export interface SessionTable {
  /** Hex SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  /** Set for tokens issued to an OAuth2 client. */
  client_id: string | null;
  /** 'session' for a signed-in session, 'otp' for a login waiting for its one-time code. */
  kind: string;
  created_at: number;
  expires_at: number;
}

export interface OAuthClientTable {
  client_id: string;
  user_id: number;
  /** '' for a user's own client; a server id for a client bound to one server. */
  server_id: string;
  name: string;
  description: string;
  secret_hash: string;
  /** Comma-joined scopes for server clients; '' means "the owner's scopes". */
  scopes: string;
  created_at: number;
}

export interface SettingTable {
  key: string;
  /** JSON-encoded value. */
  value: string;
}

export interface UserSettingTable {
  user_id: number;
  key: string;
  value: string;
}

export interface NodeTable {
  id: Generated<number>;
  name: string;
  public_host: string;
  public_port: number;
  private_host: string;
  private_port: number;
  sftp_port: number;
  /** Keys the panel's signed calls to this node; handed out once in its deployment config. */
  secret: string;
  created_at: number;
}

export interface ServerTable {
  id: string;
  name: string;
  /** 0 for the panel's local node. */
  node_id: number;
  ip: string;
  port: number;
  type: string;
  icon: string;
  created_at: number;
  /** Port allocations it may hold beyond its primary one (0016; panel/server-limits.ts). */
  allocation_limit: Generated<number>;
  /** Databases it may hold (0016). */
  database_limit: Generated<number>;
}

/**
 * A server creation in progress: written before the node is asked to make the
 * server and removed in the same transaction that records it. One left behind
 * is a creation a crash cut short, whose leftovers on the node are taken back.
 */
export interface ServerCreationTable {
  id: string;
  node_id: number;
  started_at: number;
  /** The panel that made the claim (shared_panels.id); '' for claims from before 0013. */
  panel_id: Generated<string>;
}

/**
 * A server being moved to another node (server-transfers.ts): one at a time per server, across
 * panels; a row a crash left says which node's copy to take back.
 */
export interface ServerTransferTable {
  server_id: string;
  from_node: number;
  to_node: number;
  started_at: number;
}

export interface TemplateRow {
  name: string;
  /** The template's JSON. */
  body: string;
  updated_at: number;
  /** 1 when an administrator wrote it: only such local templates are what others may create servers from. */
  by_admin: Generated<number>;
}

export interface TemplateRepoTable {
  id: Generated<number>;
  name: string;
  url: string;
  branch: string;
  created_at: number;
  /** 1 when an administrator added it: only such repositories' templates are what others may create servers from. */
  by_admin: Generated<number>;
}

/** A server's backup as the panel lists it; the node holds the file (`file_name`) and says when it is done. */
export interface BackupTable {
  id: Generated<number>;
  server_id: string;
  name: string;
  /** `<uuid>.tar.gz` in the node's backups folder for this server. */
  file_name: string;
  /** 'creating' until the node reports 'ready' or 'failed'. */
  state: string;
  /** Bytes of the finished archive. */
  size: number;
  /** Why it failed, as the node said. */
  error: string;
  created_at: number;
  /** 1: taken while the server ran, without the template's hooks. */
  while_running: number;
  /** The finished archive's SHA-256 (hex), as the node computed it while writing. */
  sha256: string;
  /** Files the exclusions (`.outpostignore`, the template's list) left out. */
  left_out: number;
  /** 1: never pruned by the backup policy. */
  pinned: number;
  /** The last verification (ms; 0: never), its outcome and why it failed. */
  verified_at: number;
  verified_ok: number;
  verify_reason: string;
}

/** A node's S3 backup target (none: its own disk); the local node is node 0. */
export interface BackupTargetTable {
  node_id: number;
  /** JSON of the fields that are not secret: endpoint, region, bucket, prefix, accessKeyId, forcePathStyle. */
  settings: string;
  /** The secret access key, sealed (server/secrets/secret-box.ts). */
  secret: string;
}

/** A MySQL/MariaDB or PostgreSQL server the panel makes servers' databases on (0024). */
export interface DatabaseHostTable {
  id: Generated<number>;
  name: string;
  /** "mysql" (MySQL or MariaDB) or "postgres". */
  type: string;
  host: string;
  port: number;
  /** The panel's own account there: it creates and drops databases and users. */
  username: string;
  /** Sealed (server/secrets/secret-box.ts), never answered. */
  password: string;
  /** Comma-joined node ids it serves; "" for every node. */
  nodes: string;
  max_databases: number | null;
  created_at: number;
}

/** A database of a server on a database host, with the one user that may use it (0024). */
export interface ServerDatabaseTable {
  id: Generated<number>;
  server_id: string;
  host_id: number;
  /** The full name on the host, `s<serverId>_<name>`. */
  name: string;
  username: string;
  /** That user's password, sealed. */
  password: string;
  /** 'creating' until the host made both (a crash in between leaves it so: delete drops what is there), then 'ready'. */
  state: string;
  created_at: number;
}

/** An address of a node's pool (issue 36) and the server holding it, if any. */
export interface AllocationTable {
  id: Generated<number>;
  node_id: number;
  ip: string;
  port: number;
  /** A host name players may use instead of the ip. */
  alias: string | null;
  server_id: string | null;
  /** The template variable its port feeds; null for an extra allocation. */
  variable: string | null;
  /** 1 for the server's primary allocation (its ip and port), else 0. */
  is_primary: number;
  created_at: number;
}

/** A preset of server scopes an administrator defined (0026); the built-in ones are in code. */
export interface PermissionPresetTable {
  id: string;
  name: string;
  /** Comma-joined server scopes. */
  scopes: string;
  created_at: number;
}

/** A named set of global scopes (0026): a user holds their own global scopes and their roles'. */
export interface RoleTable {
  id: Generated<number>;
  name: string;
  /** Comma-joined global scopes. */
  scopes: string;
  /** 1: its users must set up two-factor sign-in before anything else. */
  require_2fa: number;
  created_at: number;
}

/** Which users hold which roles. */
export interface UserRoleTable {
  user_id: number;
  role_id: number;
}

/**
 * A row of another panel brought in by `outpost import` (0028): `source` names that panel's
 * database, `kind` the table (user, node, egg, server, subuser, schedule, database_host,
 * database, files), `our_id` what it became here.
 */
export interface ImportedTable {
  source: string;
  kind: string;
  source_id: string;
  our_id: string;
  created_at: number;
}

/**
 * One entry of the activity log: who changed what, when and from where. Kept apart from the
 * write notifications (write-notifications.ts): no cached read depends on it.
 */
export interface ActivityTable {
  id: Generated<number>;
  at: number;
  /** 'user', 'client' (an OAuth2 client), 'task' or 'sftp'. */
  actor_kind: string;
  /** The user acting (a client's owner), when known; kept after the user is deleted. */
  user_id: number | null;
  /** The name the actor had or gave (a username, the e-mail tried at a failed sign-in, a task's name). */
  actor_name: string;
  client_id: string | null;
  address: string;
  /** `server.start`, `file.write`, `auth.login.failed`, … */
  action: string;
  /** 1 done, 0 refused or failed. */
  ok: number;
  server_id: string | null;
  /** What else it was done to: `user:3`, `node:2`, a file path, … ('' when only the server). */
  subject: string;
  /** JSON of the details, secrets removed. */
  details: string;
  /** A node's event id (`<boot>:<seq>`): several panels hearing one node record its event once. */
  event_id: string | null;
}

/**
 * One alert channel of a user: `type` webpush | webhook | email; `events` and
 * `servers` comma-joined (servers "" = every server the user can see);
 * `target` the webhook URL, the push subscription's JSON (sealed: its auth
 * secret) or "" for e-mail (the account's address); `secret` the webhook's
 * HMAC key, sealed.
 */
export interface NotificationChannelTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  events: string;
  servers: Generated<string>;
  target: string;
  secret: Generated<string>;
  created_at: number;
}

/** The panel's VAPID key pair (name "vapid"); the private key sealed. */
export interface NotificationKeyTable {
  name: string;
  public_key: string;
  private_key: string;
}

/** When an event was last sent: one panel of several claims it; repeats within a window are dropped. */
export interface NotificationClaimTable {
  key: string;
  at: number;
}

/** The devices (a long-lived cookie, as its SHA-256) a user has signed in from. */
export interface UserDeviceTable {
  user_id: number;
  device_hash: string;
  seen_at: number;
}

/** One counted event (a failed sign-in, a mailed invitation) under its key, kept until expires_at. */
export interface SharedEventTable {
  key: string;
  at: number;
  expires_at: number;
}

/** A running panel; what it holds (shared_connections) counts while alive_until lies ahead. */
export interface SharedPanelTable {
  id: string;
  alive_until: number;
}

/** An open console socket, live socket or SFTP session, for the caps shared by every panel. */
export interface SharedConnectionTable {
  id: string;
  panel_id: string;
  user_id: number;
  session_hash: string;
  address: string;
}

/** When a background job may run next (claimed by one panel at a time). */
export interface SharedJobTable {
  name: string;
  next_at: number;
}

export type {
  OidcLinkTable,
  OidcProviderTable,
  PasskeyTable,
  SignInChallengeTable,
  SshKeyTable,
} from "./sign-in-tables.ts";

export interface Database {
  activity: ActivityTable;
  allocations: AllocationTable;
  backups: BackupTable;
  backup_targets: BackupTargetTable;
  database_hosts: DatabaseHostTable;
  server_databases: ServerDatabaseTable;
  imported: ImportedTable;
  templates: TemplateRow;
  template_repos: TemplateRepoTable;
  nodes: NodeTable;
  servers: ServerTable;
  server_creations: ServerCreationTable;
  server_transfers: ServerTransferTable;
  users: UserTable;
  otp_recovery_codes: OtpRecoveryCodeTable;
  permissions: PermissionTable;
  permission_presets: PermissionPresetTable;
  roles: RoleTable;
  user_roles: UserRoleTable;
  sessions: SessionTable;
  oauth_clients: OAuthClientTable;
  settings: SettingTable;
  user_settings: UserSettingTable;
  notification_channels: NotificationChannelTable;
  notification_keys: NotificationKeyTable;
  notification_claims: NotificationClaimTable;
  user_devices: UserDeviceTable;
  shared_events: SharedEventTable;
  shared_panels: SharedPanelTable;
  shared_connections: SharedConnectionTable;
  shared_jobs: SharedJobTable;
  ssh_keys: SshKeyTable;
  passkeys: PasskeyTable;
  oidc_providers: OidcProviderTable;
  oidc_links: OidcLinkTable;
  sign_in_challenges: SignInChallengeTable;
}
