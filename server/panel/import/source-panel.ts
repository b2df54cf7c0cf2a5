import type { SourceDb, SourceRow } from "./source-db.ts";

/** What Outpost brings from a Pterodactyl or Pelican database, the two panels' columns read as one. */
export interface SourcePanel {
  users: SourceUser[];
  nodes: SourceNode[];
  eggs: SourceEgg[];
  allocations: SourceAllocation[];
  servers: SourceServer[];
  subusers: { id: number; userId: number; serverId: number; permissions: string[] }[];
  schedules: SourceSchedule[];
  databaseHosts: SourceDatabaseHost[];
  databases: SourceDatabase[];
  /** Their public keys for SFTP, OpenSSH lines. */
  sshKeys: { id: number; userId: number; name: string; publicKey: string }[];
  /** The finished backups, not deleted: those in S3 are adopted where they are, the rest reported. */
  backups: SourceBackup[];
}

export interface SourceBackup {
  uuid: string;
  serverId: number;
  name: string;
  /** `s3`, or `wings` (on its node's disk). */
  disk: string;
  bytes: number;
  /** Locked there: never pruned (our pin). */
  locked: boolean;
  /** Wings' `sha1:<hex>` of the archive, when it recorded one. */
  sha1: string | null;
  /** When it was made (ms since the epoch; 0 when the row does not say). */
  createdAt: number;
}

export interface SourceUser {
  id: number;
  username: string;
  email: string;
  passwordHash: string;
  language: string;
  admin: boolean;
  /** Laravel-encrypted, when the user had two-factor sign-in on. */
  totpSecret: string | null;
}

export interface SourceNode {
  id: number;
  name: string;
  fqdn: string;
  daemonPort: number;
  sftpPort: number;
}

export interface SourceEgg {
  id: number;
  uuid: string;
  name: string;
  /** The egg as its panel exports it (PTDL_v2), for the egg import. */
  document: Record<string, unknown>;
}

export interface SourceAllocation {
  id: number;
  nodeId: number;
  ip: string;
  port: number;
  /** Pterodactyl's `ip_alias`: the name shown for the address. */
  alias: string | null;
  serverId: number | null;
}

export interface SourceServer {
  id: number;
  uuid: string;
  uuidShort: string;
  nodeId: number;
  name: string;
  description: string;
  ownerId: number;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
  allocationId: number;
  eggId: number;
  startup: string;
  image: string;
  databaseLimit: number | null;
  allocationLimit: number | null;
  /** The server's values of its egg's variables, by environment name. */
  variables: Record<string, string>;
}

export interface SourceSchedule {
  id: number;
  serverId: number;
  name: string;
  cron: string;
  active: boolean;
  onlyWhenOnline: boolean;
  tasks: { sequence: number; action: string; payload: string; offset: number; continueOnFailure: boolean }[];
}

export interface SourceDatabaseHost {
  id: number;
  name: string;
  host: string;
  port: number;
  username: string;
  /** Laravel-encrypted. */
  password: string;
  maxDatabases: number | null;
  /** The nodes it serves (none: every node). */
  nodeIds: number[];
  /** Pelican's `driver` (mysql, mariadb, pgsql); Pterodactyl's hosts are all MySQL/MariaDB. */
  type: "mysql" | "postgres" | "other";
}

export interface SourceDatabase {
  id: number;
  serverId: number;
  hostId: number;
  name: string;
  username: string;
  remote: string;
  /** Laravel-encrypted. */
  password: string;
}

const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v == null ? "" : String(v));
const optNum = (v: unknown) => (v == null ? null : Number(v));
/** Laravel's timestamps: `2024-05-01 12:00:00` in UTC (MySQL as text, SQLite), or a Date (PostgreSQL). */
const timeOf = (v: unknown): number => {
  if (v instanceof Date) return v.getTime();
  const parsed =
    typeof v === "string"
      ? Date.parse(`${v.trim().replace(" ", "T")}${/Z|[+-]\d\d:?\d\d$/.test(v) ? "" : "Z"}`)
      : NaN;
  return Number.isNaN(parsed) ? 0 : parsed;
};
/** The first of the columns a row has: the two panels (and their versions) name some apart. */
const pick = (row: SourceRow, ...names: string[]) => row[names.find((n) => n in row) ?? (names[0] as string)];
const jsonOf = (v: unknown): unknown => {
  if (v == null || typeof v !== "string") return v ?? null;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/** Pelican since 2024 tells administrators by role ("Root Admin", spatie/laravel-permission), no longer by column. */
async function rootAdminIds(source: SourceDb): Promise<Set<number>> {
  const roles = (await source.rows("roles"))
    .filter((r) => str(r.name) === "Root Admin")
    .map((r) => num(r.id));
  const assigned = await source.rows("model_has_roles");
  return new Set(
    assigned
      .filter((r) => roles.includes(num(r.role_id)) && str(r.model_type).endsWith("User"))
      .map((r) => num(r.model_id)),
  );
}

export async function readSource(source: SourceDb): Promise<SourcePanel> {
  const rootAdmins = await rootAdminIds(source);
  const users = (await source.rows("users")).map(
    (r): SourceUser => ({
      id: num(r.id),
      username: str(r.username),
      email: str(r.email),
      passwordHash: str(r.password),
      language: str(r.language) || "en",
      admin: num(r.root_admin) === 1 || rootAdmins.has(num(r.id)),
      totpSecret: num(r.use_totp) === 1 && r.totp_secret ? str(r.totp_secret) : null,
    }),
  );
  const nodes = (await source.rows("nodes")).map(
    (r): SourceNode => ({
      id: num(r.id),
      name: str(r.name),
      fqdn: str(r.fqdn),
      daemonPort: num(pick(r, "daemon_listen", "daemonListen")) || 8080,
      sftpPort: num(pick(r, "daemon_sftp", "daemonSFTP")) || 2022,
    }),
  );
  const variableRows = await source.rows("egg_variables");
  const eggRows = await source.rows("eggs");
  const eggRowsById = new Map(eggRows.map((r) => [num(r.id), r]));
  const eggs = eggRows.map((r): SourceEgg => {
    // An egg may take its configuration or install script from another (config_from, copy_script_from).
    const configFrom = eggRowsById.get(num(r.config_from)) ?? r;
    const scriptFrom = eggRowsById.get(num(r.copy_script_from)) ?? r;
    const cfg = (key: string) => (r[key] == null ? configFrom[key] : r[key]);
    const variables = variableRows
      .filter((v) => num(v.egg_id) === num(r.id))
      .sort((a, b) => num(a.sort ?? a.id) - num(b.sort ?? b.id))
      .map((v) => ({
        name: str(v.name),
        description: str(v.description),
        env_variable: str(v.env_variable),
        default_value: str(v.default_value),
        user_viewable: num(v.user_viewable) === 1,
        user_editable: num(v.user_editable) === 1,
        // `a|b` text, or (Pelican since 2024) a JSON list: the egg import reads both.
        rules: Array.isArray(jsonOf(v.rules)) ? jsonOf(v.rules) : str(v.rules),
        field_type: "text",
      }));
    return {
      id: num(r.id),
      uuid: str(r.uuid),
      name: str(r.name),
      document: {
        meta: { version: "PTDL_v2" },
        name: str(r.name),
        author: str(r.author),
        description: str(r.description),
        features: jsonOf(r.features),
        docker_images: jsonOf(r.docker_images) ?? {},
        file_denylist: jsonOf(r.file_denylist) ?? [],
        startup: str(r.startup),
        config: {
          files: str(cfg("config_files")),
          startup: str(cfg("config_startup")),
          logs: str(cfg("config_logs")),
          stop: str(cfg("config_stop")),
        },
        scripts: {
          installation: {
            script: str(scriptFrom.script_install),
            container: str(scriptFrom.script_container),
            entrypoint: str(scriptFrom.script_entry),
          },
        },
        variables,
      },
    };
  });
  const allocations = (await source.rows("allocations")).map(
    (r): SourceAllocation => ({
      id: num(r.id),
      nodeId: num(r.node_id),
      ip: str(r.ip),
      port: num(r.port),
      alias: r.ip_alias == null || r.ip_alias === "" ? null : str(r.ip_alias),
      serverId: optNum(r.server_id),
    }),
  );
  const serverVariables = await source.rows("server_variables");
  const envOf = new Map(variableRows.map((v) => [num(v.id), str(v.env_variable)]));
  const servers = (await source.rows("servers")).map((r): SourceServer => {
    const variables: Record<string, string> = {};
    for (const v of serverVariables)
      if (num(v.server_id) === num(r.id)) {
        const env = envOf.get(num(v.variable_id));
        if (env) variables[env] = str(v.variable_value);
      }
    return {
      id: num(r.id),
      uuid: str(r.uuid),
      uuidShort: str(pick(r, "uuid_short", "uuidShort")),
      nodeId: num(r.node_id),
      name: str(r.name),
      description: str(r.description),
      ownerId: num(r.owner_id),
      memory: num(r.memory),
      swap: num(r.swap),
      disk: num(r.disk),
      io: num(r.io),
      cpu: num(r.cpu),
      threads: r.threads == null || r.threads === "" ? null : str(r.threads),
      allocationId: num(r.allocation_id),
      eggId: num(r.egg_id),
      startup: str(r.startup),
      image: str(r.image),
      databaseLimit: optNum(r.database_limit),
      allocationLimit: optNum(r.allocation_limit),
      variables,
    };
  });
  const subusers = (await source.rows("subusers")).map((r) => {
    const permissions = jsonOf(r.permissions);
    return {
      id: num(r.id),
      userId: num(r.user_id),
      serverId: num(r.server_id),
      permissions: Array.isArray(permissions) ? permissions.map(String) : [],
    };
  });
  const taskRows = await source.rows("tasks");
  const schedules = (await source.rows("schedules")).map(
    (r): SourceSchedule => ({
      id: num(r.id),
      serverId: num(r.server_id),
      name: str(r.name),
      cron: [r.cron_minute, r.cron_hour, r.cron_day_of_month, r.cron_month, r.cron_day_of_week]
        .map(str)
        .join(" "),
      active: num(r.is_active) === 1,
      onlyWhenOnline: num(r.only_when_online) === 1,
      tasks: taskRows
        .filter((t) => num(t.schedule_id) === num(r.id))
        .sort((a, b) => num(a.sequence_id) - num(b.sequence_id))
        .map((t) => ({
          sequence: num(t.sequence_id),
          action: str(t.action),
          payload: str(t.payload),
          offset: num(t.time_offset),
          continueOnFailure: num(t.continue_on_failure) === 1,
        })),
    }),
  );
  // Pelican keeps a host's nodes in database_host_node, Pterodactyl one node_id on the host.
  const hostNodes = await source.rows("database_host_node");
  const databaseHosts = (await source.rows("database_hosts")).map((r): SourceDatabaseHost => {
    const driver = str(r.driver) || "mysql";
    return {
      id: num(r.id),
      name: str(r.name),
      host: str(r.host),
      port: num(r.port),
      username: str(r.username),
      password: str(r.password),
      maxDatabases: optNum(r.max_databases),
      nodeIds: [
        ...(r.node_id == null ? [] : [num(r.node_id)]),
        ...hostNodes.filter((h) => num(h.database_host_id) === num(r.id)).map((h) => num(h.node_id)),
      ],
      type: driver === "mysql" || driver === "mariadb" ? "mysql" : driver === "pgsql" ? "postgres" : "other",
    };
  });
  const databases = (await source.rows("databases")).map(
    (r): SourceDatabase => ({
      id: num(r.id),
      serverId: num(r.server_id),
      hostId: num(r.database_host_id),
      name: str(r.database),
      username: str(r.username),
      remote: str(r.remote),
      password: str(r.password),
    }),
  );
  const sshKeys = (await source.rows("user_ssh_keys"))
    .filter((r) => r.deleted_at == null)
    .map((r) => ({ id: num(r.id), userId: num(r.user_id), name: str(r.name), publicKey: str(r.public_key) }));
  const backups = (await source.rows("backups"))
    .filter((r) => r.deleted_at == null && num(r.is_successful) === 1)
    .map(
      (r): SourceBackup => ({
        uuid: str(r.uuid),
        serverId: num(r.server_id),
        name: str(r.name),
        disk: str(r.disk),
        bytes: num(r.bytes),
        locked: num(r.is_locked) === 1,
        sha1: /^sha1:[0-9a-f]{40}$/i.test(str(r.checksum)) ? str(r.checksum).slice(5).toLowerCase() : null,
        createdAt: timeOf(r.created_at) || timeOf(r.completed_at),
      }),
    );
  return {
    users,
    nodes,
    eggs,
    allocations,
    servers,
    subusers,
    schedules,
    databaseHosts,
    databases,
    sshKeys,
    backups,
  };
}
