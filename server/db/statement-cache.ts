import type SQLite from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs about
 * as much as running a small query. This hands it prepared statements from a
 * bounded cache keyed by SQL text (the SQL Kysely builds is stable; values
 * are bound separately). A statement that is still busy (an open iterator)
 * is never handed out twice.
 */
export function withStatementCache(db: SQLite.Database, limit = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Refresh its place: the map's order is the eviction order.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > limit) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
  };
}
