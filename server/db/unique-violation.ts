/**
 * Whether a write was refused by a UNIQUE index or primary key, and by nothing
 * else: PostgreSQL's SQLSTATE 23505, better-sqlite3's extended result codes.
 * Callers turn only this into "already exists"; any other failure (a database
 * that is down, a full disk) must surface as itself.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
