/**
 * The API test files the api-postgres project runs (api-sqlite runs them all). A file is here when
 * what it tests can differ by database: SQL a dialect answers its own way, rows written by another
 * connection, limits and schedules shared through the database. A file that tests a node, file,
 * process or HTTP feature, the same whatever database holds the panel's rows, runs on SQLite only.
 * tests/unit/support/postgres-files.test.ts fails when a file that touches the database layer is missing.
 */
export const postgresGroups: readonly { reason: string; files: readonly string[] }[] = [
  {
    reason: "several panels on one database, a database cut away: PostgreSQL only",
    files: ["*.postgres.test.ts"],
  },
  {
    reason: "reads or writes the panel's tables itself, or restarts a panel on the database it wrote",
    files: [
      "activity",
      "activity-secrets",
      "floods",
      "backup-targets",
      "backups",
      "cli",
      "databases",
      "durability",
      "eggs",
      "mods",
      "secrets-at-rest",
      "self-otp",
      "server-create-crash",
      "server-create-leftover",
      "server-create-templates",
      "server-users",
      "sftp",
      "sftp-keys",
      "transfer-claim",
      "template-repo-addresses",
      "upgrade",
      "upgrade-check",
    ],
  },
  {
    reason: "a request's body and a backup's row read together before the node is asked (a partial restore)",
    files: ["backup-partial-restore"],
  },
  { reason: "lists with filters, search, paging and sorting", files: ["users", "servers", "stats-history"] },
  {
    reason: "unique names and addresses, all-or-nothing writes, NUL and odd values reaching the queries",
    files: ["register", "self", "nodes", "settings", "validation", "templates", "fuzz", "allocations"],
  },
  {
    reason: "sessions, tokens and codes stored and expired; answers kept in memory dropped on a write",
    files: [
      "session",
      "login",
      "reauth-logout",
      "access",
      "otp",
      "passkeys",
      "oidc",
      "oidc-email",
      "oauth2",
      "self-clients",
      "server-clients",
      "xsrf",
      "answers-from-memory",
    ],
  },
  {
    reason: "rights from roles and presets, required two-factor: issue 39 asks for both databases",
    files: ["roles", "presets"],
  },
  {
    reason: "throttles and connection caps shared through the database (server/panel/shared-state.ts)",
    files: ["rate-limit", "invite-mail", "live-connections"],
  },
  {
    reason: "tasks stored, claimed and run on schedule; per-user rows and alert claims (upserts)",
    files: ["tasks", "task-authority", "task-authority-offline", "user-settings", "notifications"],
  },
];

/** The same list as vitest include patterns. */
export const postgresIncludes: string[] = postgresGroups.flatMap((g) =>
  g.files.map((f) => (f.includes("*") ? `tests/api/**/${f}` : `tests/api/${f}.test.ts`)),
);
