import { spawnSync } from "node:child_process";
import { createCipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import Sqlite from "better-sqlite3";
import mysql from "mysql2/promise";

/**
 * A Pterodactyl or Pelican database for the import tests (issue 40): the panel's real schema
 * (tests/fixtures/pterodactyl, tests/fixtures/pelican) loaded into MariaDB or SQLite, then rows
 * written the way that panel writes them — Laravel bcrypt `$2y$` hashes, APP_KEY-encrypted
 * secrets, eggs from the vendored corpus with their variables.
 */
export interface SourceConnection {
  /** A table's or column's name quoted for this database. */
  quote(name: string): string;
  /** The n-th (from 1) parameter's placeholder. */
  param(n: number): string;
  /** Variables' rules are a JSON list (Pelican since 2024, a jsonb column) rather than `a|b` text. */
  rulesAsList?: boolean;
  columns(table: string): Promise<string[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** A fingerprint of every table's rows: equal before and after means nothing was written. */
  checksum(): Promise<string>;
  close(): Promise<void>;
}

const fixtures = path.resolve(import.meta.dirname, "../fixtures");

export async function mysqlSource(serverUrl: string, database: string, schemaFile: string) {
  const admin = await mysql.createConnection({ uri: serverUrl, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${database}\``);
  await admin.query(`USE \`${database}\``);
  await admin.query(fs.readFileSync(path.join(fixtures, schemaFile), "utf8"));
  const connection: SourceConnection = {
    quote: (name) => `\`${name}\``,
    param: () => "?",
    async columns(table) {
      const [rows] = await admin.query(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?",
        [table],
      );
      return (rows as { name: string }[]).map((r) => r.name);
    },
    async run(sql, params = []) {
      await admin.query(sql, params);
    },
    async checksum() {
      const [tables] = await admin.query("SHOW TABLES");
      const names = (tables as Record<string, string>[]).map((r) => Object.values(r)[0] as string);
      const [sums] = await admin.query(`CHECKSUM TABLE ${names.map((n) => `\`${n}\``).join(", ")} EXTENDED`);
      return JSON.stringify(sums);
    },
    async close() {
      await admin.end();
    },
  };
  return { connection, url: `${serverUrl.replace(/\/$/, "")}/${database}` };
}

/**
 * A PostgreSQL source: a database of its own in the suite's cluster, Pelican's dumped schema run
 * as it is (its `SET transaction_timeout`, a PostgreSQL 17 setting, is left to servers that know it).
 */
export async function postgresSource(clusterUrl: string, database: string, schemaFile: string) {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = clusterUrl.replace(/\/[^/]*$/, `/${database}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // As Laravel's schema:load does, through psql (the dump copies its migrations FROM stdin). A
  // server older than the dump's PostgreSQL 17 refuses its `SET transaction_timeout`, the one
  // error allowed here.
  const loaded = spawnSync("psql", ["-X", "-q", "-d", url, "-f", path.join(fixtures, schemaFile)], {
    encoding: "utf8",
  });
  const errors = loaded.stderr.split("\n").filter((line) => /ERROR/.test(line));
  if (loaded.status !== 0 || errors.some((line) => !line.includes('"transaction_timeout"')))
    throw new Error(`psql could not load ${schemaFile}: ${loaded.stderr}`);
  const connection: SourceConnection = {
    quote: (name) => `"${name}"`,
    param: (n) => `$${n}`,
    rulesAsList: true,
    async columns(table) {
      const result = await client.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        [table],
      );
      return result.rows.map((r) => r.column_name as string);
    },
    async run(sql, params = []) {
      await client.query(sql, params);
    },
    async checksum() {
      const tables = await client.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
      );
      const hash = createHash("sha256");
      for (const { tablename } of tables.rows) {
        const rows = await client.query(
          `SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS h FROM public."${tablename}" t`,
        );
        hash.update(`${tablename}:${rows.rows[0].h ?? ""};`);
      }
      return hash.digest("hex");
    },
    async close() {
      await client.end();
    },
  };
  return { connection, url };
}

export function sqliteSource(file: string, schemaFile: string) {
  const db = new Sqlite(file);
  db.exec(fs.readFileSync(path.join(fixtures, schemaFile), "utf8"));
  const connection: SourceConnection = {
    quote: (name) => `"${name}"`,
    param: () => "?",
    async columns(table) {
      return (db.prepare(`PRAGMA table_info(\`${table}\`)`).all() as { name: string }[]).map((r) => r.name);
    },
    async run(sql, params = []) {
      db.prepare(sql).run(...params);
    },
    async checksum() {
      return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
    },
    async close() {
      db.close();
    },
  };
  return { connection, url: `sqlite:${file}` };
}

/** Writes a row with the columns the table has (the two panels and their versions differ). */
async function insert(source: SourceConnection, table: string, row: Record<string, unknown>): Promise<void> {
  const have = new Set(await source.columns(table));
  // A table this panel's version does not have (Pelican has no nests or locations).
  if (have.size === 0) return;
  const keys = Object.keys(row).filter((k) => have.has(k));
  const values = keys.map((k) => {
    const v = row[k];
    return v !== null && typeof v === "object" ? JSON.stringify(v) : typeof v === "boolean" ? (v ? 1 : 0) : v;
  });
  const q = source.quote;
  await source.run(
    `INSERT INTO ${q(table)} (${keys.map(q).join(", ")}) VALUES (${keys.map((_, i) => source.param(i + 1)).join(", ")})`,
    values,
  );
}

/** Laravel's `encrypt($value)`: PHP-serialized, AES-256-CBC, `{iv, value, mac, tag}` in base64 JSON. */
export function laravelEncrypt(appKey: string, value: string, serialize = true): string {
  const key = Buffer.from(appKey.replace(/^base64:/, ""), "base64");
  const iv = randomBytes(16);
  const plain = serialize ? `s:${Buffer.byteLength(value)}:"${value}";` : value;
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  const encrypted = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
  const ivText = iv.toString("base64");
  const mac = createHmac("sha256", key)
    .update(ivText + encrypted)
    .digest("hex");
  return Buffer.from(JSON.stringify({ iv: ivText, value: encrypted, mac, tag: "" })).toString("base64");
}

/** Laravel's Hash::make: bcrypt, written `$2y$` as PHP's password_hash writes it. */
export const laravelHash = (password: string) => bcrypt.hashSync(password, 10).replace(/^\$2b\$/, "$2y$");

export const appKey = `base64:${Buffer.alloc(32, 7).toString("base64")}`;

const eggFiles = {
  paper: "pelican-eggs/parkervcp-eggs-2024/game_eggs/minecraft/java/paper/egg-paper.json",
  muse: "pelican-eggs/parkervcp-eggs-2024/bots/discord/muse/egg-muse.json",
  terraria: "pelican-eggs/parkervcp-eggs-2024/game_eggs/terraria/vanilla/egg-terraria-vanilla.json",
  cuberite: "pelican-eggs/parkervcp-eggs-2024/game_eggs/minecraft/java/cuberite/egg-cuberite.json",
} as const;

export const sourceUsers = {
  admin: {
    id: 1,
    username: "oldadmin",
    email: "admin@old.example",
    password: "admin-pass-1",
    totp: "JBSWY3DPEHPK3PXP",
  },
  owner: { id: 2, username: "owner1", email: "owner@old.example", password: "owner-pass-1" },
  friend: { id: 3, username: "friend1", email: "friend@old.example", password: "friend-pass-1" },
};

export const sourceServers = [
  { id: 1, uuidShort: "1a2b3c4d", egg: "paper", node: 1, port: 25565, memory: 2048 },
  { id: 2, uuidShort: "5e6f7a8b", egg: "muse", node: 1, port: 27000, memory: 512 },
  { id: 3, uuidShort: "9c0d1e2f", egg: "terraria", node: 2, port: 7777, memory: 1024 },
  // Its web port (WEB_PORT, a plain variable of its egg) is 8081 there, none of its allocations.
  { id: 4, uuidShort: "3f4e5d6c", egg: "cuberite", node: 1, port: 25566, memory: 1024 },
] as const;

/** Swap, IO weight and CPU threads of servers there that have them (else 0, the default 500, none). */
export const sourceLimits: Record<string, { swap?: number; io?: number; threads?: string }> = {
  "5e6f7a8b": { swap: 256, io: 700, threads: "0, 1" },
  "9c0d1e2f": { swap: -1 },
  "3f4e5d6c": { io: 5, threads: "0-" },
};

/** The subuser's mixed permissions, and the scopes they come to here (the README's table). */
export const friendPermissions = [
  "websocket.connect",
  "control.console",
  "control.start",
  "control.restart",
  "file.read",
  "user.read",
  "schedule.read",
  "startup.docker-image",
];
export const friendScopes = [
  "server.view",
  "server.status",
  "server.stats",
  "server.console",
  "server.console.send",
  "server.start",
  "server.users.view",
  "server.tasks.view",
];

/**
 * The old panel's backups: one in S3 whose object the suite puts in the bucket (locked there),
 * one in S3 whose object is gone, one on a Wings node's disk, and one deleted there.
 */
export const sourceBackups = {
  kept: { uuid: "b0000001-0000-4000-8000-000000000001", name: "before the update" },
  gone: { uuid: "b0000002-0000-4000-8000-000000000002", name: "gone from the bucket" },
  local: { uuid: "b0000003-0000-4000-8000-000000000003", name: "on the node's disk" },
  deleted: { uuid: "b0000004-0000-4000-8000-000000000004", name: "deleted there" },
};

export const uuidOf = (shortId: string) => `${shortId}-0000-4000-8000-000000000000`;

type NewServer = {
  id: number;
  uuidShort: string;
  egg: keyof typeof eggFiles;
  node: number;
  port: number;
  memory: number;
  /** Its own startup line, as an administrator may set one there (else its egg's). */
  startup?: string;
};

/** A server as Pterodactyl makes one: its allocation first, the server, then the allocation is its. */
async function insertServer(
  source: SourceConnection,
  server: NewServer,
  eggId: number,
  allocationId: number,
) {
  const now = "2024-05-01 12:00:00";
  await insert(source, "allocations", {
    id: allocationId,
    node_id: server.node,
    ip: "0.0.0.0",
    port: server.port,
    server_id: null,
  });
  const egg = JSON.parse(fs.readFileSync(path.join(fixtures, eggFiles[server.egg]), "utf8"));
  await insert(source, "servers", {
    id: server.id,
    uuid: uuidOf(server.uuidShort),
    uuidShort: server.uuidShort,
    uuid_short: server.uuidShort,
    node_id: server.node,
    name: `old ${server.egg}${server.id > sourceServers.length ? ` ${server.id}` : ""}`,
    description: `the ${server.egg} server`,
    owner_id: sourceUsers.owner.id,
    memory: server.memory,
    swap: sourceLimits[server.uuidShort]?.swap ?? 0,
    disk: 10240,
    io: sourceLimits[server.uuidShort]?.io ?? 500,
    threads: sourceLimits[server.uuidShort]?.threads ?? null,
    cpu: 200,
    allocation_id: allocationId,
    nest_id: 1,
    egg_id: eggId,
    startup: server.startup ?? egg.startup,
    image: Object.values(egg.docker_images)[0],
    database_limit: 2,
    backup_limit: 0,
    created_at: now,
  });
  const q = source.quote;
  await source.run(
    `UPDATE ${q("allocations")} SET ${q("server_id")} = ${source.param(1)} WHERE ${q("id")} = ${source.param(2)}`,
    [server.id, allocationId],
  );
  return egg;
}

/**
 * A server the old panel made after the first import, on the first node (Paper, else the egg
 * named, with its own startup line): its allocation and server get ids past fillSource's.
 */
export async function addLaterServer(
  source: SourceConnection,
  id: number,
  uuidShort: string,
  port: number,
  own?: { egg: keyof typeof eggFiles; startup: string },
) {
  const egg = own?.egg ?? "paper";
  const eggId = Object.keys(eggFiles).indexOf(egg) + 1;
  await insertServer(
    source,
    { id, uuidShort, egg, node: 1, port, memory: 1024, ...(own ? { startup: own.startup } : {}) },
    eggId,
    100 + id,
  );
}

/** Two nodes, three users, four servers from corpus eggs with allocations, a subuser, a schedule, a database host. */
export async function fillSource(
  source: SourceConnection,
  database: { host: string; port: number; username: string; password: string },
  /** The owner's public keys there (OpenSSH lines): one this panel takes, one it refuses. */
  sshKeys: { laptop: string; old: string },
  /** Where the second Wings node's SFTP listens (the first one's volumes are on this host). */
  wings2: { host: string; sftpPort: number },
  /** The archives of the backups `sourceBackups.kept` (in S3) and `.local`, as Wings recorded them. */
  archives: Record<"kept" | "local", { bytes: number; sha1: string }>,
): Promise<void> {
  const now = "2024-05-01 12:00:00";
  await insert(source, "locations", { id: 1, short: "home", long: "Home", created_at: now, updated_at: now });
  await insert(source, "nests", {
    id: 1,
    uuid: randomUuid(),
    author: "t@example.com",
    name: "Games",
    created_at: now,
  });
  for (const user of Object.values(sourceUsers)) {
    const totp = "totp" in user ? user.totp : null;
    await insert(source, "users", {
      id: user.id,
      uuid: randomUuid(),
      username: user.username,
      email: user.email,
      password: laravelHash(user.password),
      language: user.id === 2 ? "de" : "en",
      root_admin: user.id === 1,
      use_totp: totp !== null,
      totp_secret: totp === null ? null : laravelEncrypt(appKey, totp),
      gravatar: 1,
      created_at: now,
      updated_at: now,
    });
  }
  for (const id of [1, 2]) {
    await insert(source, "nodes", {
      id,
      uuid: randomUuid(),
      public: 1,
      name: `wings-${id}`,
      location_id: 1,
      fqdn: id === 2 ? wings2.host : `wings${id}.old.example`,
      scheme: "https",
      memory: 16384,
      disk: 100000,
      daemon_token_id: `token${id}`.padEnd(16, "x"),
      daemon_token: laravelEncrypt(appKey, "daemon-secret"),
      daemonListen: 8080,
      daemon_listen: 8080,
      daemonSFTP: id === 2 ? wings2.sftpPort : 2022,
      daemon_sftp: id === 2 ? wings2.sftpPort : 2022,
      daemonBase: "/var/lib/pterodactyl/volumes",
      daemon_base: "/var/lib/pterodactyl/volumes",
      tags: "[]",
      created_at: now,
    });
  }
  // Pelican tells its administrators by role (where it has the tables).
  await insert(source, "roles", { id: 1, name: "Root Admin", guard_name: "web", created_at: now });
  await insert(source, "model_has_roles", {
    role_id: 1,
    model_type: "App\\Models\\User",
    model_id: sourceUsers.admin.id,
  });
  let variableId = 0;
  const variableIds = new Map<string, number>();
  const eggIds = new Map<string, number>();
  let eggId = 0;
  for (const [name, file] of Object.entries(eggFiles)) {
    const egg = JSON.parse(fs.readFileSync(path.join(fixtures, file), "utf8"));
    eggId += 1;
    eggIds.set(name, eggId);
    await insert(source, "eggs", {
      id: eggId,
      uuid: randomUuid(),
      nest_id: 1,
      author: egg.author,
      name: egg.name,
      description: egg.description,
      features: egg.features ?? null,
      docker_images: egg.docker_images,
      file_denylist: egg.file_denylist ?? [],
      config_files: egg.config.files,
      config_startup: egg.config.startup,
      config_logs: egg.config.logs,
      config_stop: egg.config.stop,
      startup: egg.startup,
      script_container: egg.scripts.installation.container,
      script_entry: egg.scripts.installation.entrypoint,
      script_install: egg.scripts.installation.script,
      tags: "[]",
      created_at: now,
    });
    for (const v of egg.variables) {
      variableId += 1;
      variableIds.set(`${name}:${v.env_variable}`, variableId);
      await insert(source, "egg_variables", {
        id: variableId,
        egg_id: eggId,
        name: v.name,
        description: v.description,
        env_variable: v.env_variable,
        default_value: v.default_value ?? "",
        user_viewable: v.user_viewable,
        user_editable: v.user_editable,
        rules: source.rulesAsList ? String(v.rules).split("|") : v.rules,
        sort: variableId,
        created_at: now,
      });
    }
  }
  let allocationId = 0;
  for (const server of sourceServers) {
    allocationId += 1;
    const egg = await insertServer(source, server, eggIds.get(server.egg) as number, allocationId);
    const first = egg.variables[0];
    if (first) {
      await insert(source, "server_variables", {
        server_id: server.id,
        variable_id: variableIds.get(`${server.egg}:${first.env_variable}`),
        variable_value: server.egg === "paper" ? "1.20.4" : (first.default_value ?? ""),
        created_at: now,
      });
    }
  }
  await insert(source, "server_variables", {
    server_id: 4,
    variable_id: variableIds.get("cuberite:WEB_PORT"),
    variable_value: "8081",
    created_at: now,
  });
  // The Minecraft servers' extra ports, and a port of the node's pool nobody holds.
  for (const [port, server] of [
    [25575, 1],
    [8080, 4],
  ]) {
    allocationId += 1;
    await insert(source, "allocations", {
      id: allocationId,
      node_id: 1,
      ip: "0.0.0.0",
      port,
      server_id: server,
    });
  }
  allocationId += 1;
  await insert(source, "allocations", {
    id: allocationId,
    node_id: 1,
    ip: "0.0.0.0",
    ip_alias: "play.old.example",
    port: 25580,
    server_id: null,
  });
  await insert(source, "subusers", {
    id: 1,
    user_id: sourceUsers.friend.id,
    server_id: 1,
    permissions: friendPermissions,
    created_at: now,
  });
  await insert(source, "schedules", {
    id: 1,
    server_id: 1,
    name: "nightly restart",
    cron_day_of_week: "*",
    cron_month: "*",
    cron_day_of_month: "*",
    cron_hour: "4",
    cron_minute: "0",
    is_active: 1,
    is_processing: 0,
    only_when_online: 0,
    created_at: now,
  });
  await insert(source, "tasks", {
    id: 1,
    schedule_id: 1,
    sequence_id: 1,
    action: "command",
    payload: "say restarting in 30 s",
    time_offset: 0,
    is_queued: 0,
    continue_on_failure: 0,
    created_at: now,
  });
  await insert(source, "tasks", {
    id: 2,
    schedule_id: 1,
    sequence_id: 2,
    action: "power",
    payload: "restart",
    time_offset: 30,
    is_queued: 0,
    continue_on_failure: 0,
    created_at: now,
  });
  for (const [id, name, line] of [
    [1, "laptop", sshKeys.laptop],
    [2, "old desktop", sshKeys.old],
  ] as const)
    await insert(source, "user_ssh_keys", {
      id,
      user_id: sourceUsers.owner.id,
      name,
      fingerprint: "SHA256:as-the-panel-wrote-it",
      public_key: line,
      created_at: now,
    });
  const backups = [
    { ...sourceBackups.kept, server: 1, disk: "s3", bytes: archives.kept.bytes, locked: true },
    { ...sourceBackups.gone, server: 1, disk: "s3", bytes: 4321, locked: false },
    { ...sourceBackups.local, server: 4, disk: "wings", bytes: archives.local.bytes, locked: false },
    { ...sourceBackups.deleted, server: 1, disk: "s3", bytes: 999, locked: false },
  ];
  for (const [index, backup] of backups.entries())
    await insert(source, "backups", {
      id: index + 1,
      server_id: backup.server,
      uuid: backup.uuid,
      is_successful: 1,
      is_locked: backup.locked,
      name: backup.name,
      ignored_files: "[]",
      disk: backup.disk,
      checksum:
        backup.uuid === sourceBackups.kept.uuid
          ? `sha1:${archives.kept.sha1}`
          : backup.uuid === sourceBackups.local.uuid
            ? `sha1:${archives.local.sha1}`
            : null,
      bytes: backup.bytes,
      completed_at: now,
      created_at: now,
      deleted_at: backup.uuid === sourceBackups.deleted.uuid ? now : null,
    });
  await insert(source, "database_hosts", {
    id: 1,
    name: "old mariadb",
    host: database.host,
    port: database.port,
    username: database.username,
    password: laravelEncrypt(appKey, database.password),
    max_databases: 10,
    node_id: null,
    driver: "mariadb",
    created_at: now,
  });
  await insert(source, "databases", {
    id: 1,
    server_id: 1,
    database_host_id: 1,
    database: "s1_world",
    username: "u1_abcdef",
    remote: "%",
    password: laravelEncrypt(appKey, "world-db-pass"),
    max_connections: 0,
    created_at: now,
  });
}

function randomUuid(): string {
  return crypto.randomUUID();
}
