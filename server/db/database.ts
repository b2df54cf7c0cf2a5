import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import type Pg from "pg";
import { ensurePrivateDir, ensurePrivateFile, privateFileMode } from "../secrets/private-files.ts";
import { migrations } from "./migrations/index.ts";
import { withStatementCache } from "./statement-cache.ts";
import type { Database } from "./tables.ts";
import { countingWrites, registerWriteGeneration, WriteGeneration } from "./write-generation.ts";
import { type ListenerLog, notifyOnEveryTable, WriteListener } from "./write-notifications.ts";

export type Dialect = "sqlite" | "postgres";
export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  dialect: Dialect;
  /**
   * Rewrites the tables so that values just replaced (secrets sealed in
   * place) leave no old copy in free pages, the WAL or dead row versions.
   */
  scrub(): Promise<void>;
  /**
   * Starts following other connections' commits, so that answers may be kept
   * in memory (write-generation.ts). SQLite does so from the start; on
   * PostgreSQL this opens the LISTEN connection (write-notifications.ts), and
   * until it is called nothing is kept. For the long-running panel, not for
   * one-off commands.
   */
  followOtherWriters(log: ListenerLog): void;
  close(): Promise<void>;
}

/** The PostgreSQL driver, loaded only when a postgres:// database is opened (a SQLite panel never holds it). */
function postgresDriver(): typeof Pg {
  const pg = createRequire(import.meta.url)("pg") as typeof Pg;
  // PostgreSQL bigint (int8) comes back as a string by default; our bigints are
  // millisecond times and TOTP steps, far below 2^53.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  return pg;
}

/** Opens the database named by DATABASE_URL, or the SQLite file in the data dir. */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): OpenedDatabase {
  const url = opts.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pg = postgresDriver();
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection the database dropped (a restart, a network cut) is discarded by the pool;
    // unheard, its error would end the process. The next query opens a fresh one.
    pool.on("error", () => {});
    // Other panels may write to the same database: nothing is answered from memory until
    // their writes are heard (followOtherWriters).
    const generation = new WriteGeneration(false);
    const db = new Kysely<Database>({ dialect: countingWrites(new PostgresDialect({ pool }), generation) });
    registerWriteGeneration(db, generation);
    const scrub = async () => {
      await sql`VACUUM FULL nodes, users, settings`.execute(db);
    };
    let listener: WriteListener | undefined;
    const followOtherWriters = (log: ListenerLog) => {
      listener ??= new WriteListener(pg, url, generation, log);
    };
    const close = async () => {
      await listener?.close();
      await db.destroy();
    };
    return { db, dialect: "postgres", scrub, followOtherWriters, close };
  }
  if (url && !url.startsWith("sqlite:") && !url.startsWith("file:")) {
    throw new Error("DATABASE_URL must start with postgres:// (or sqlite:/file: for a SQLite file)");
  }
  const file = url ? url.replace(/^(sqlite|file):(\/\/)?/, "") : path.join(opts.dataDir, "outpost.db");
  // The data folder is ours to keep private; a folder named by DATABASE_URL is
  // the operator's, so it is only made (0700) when missing, never narrowed.
  if (url) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  else ensurePrivateDir(opts.dataDir);
  // Made 0600 before SQLite opens it: SQLite gives -wal and -shm the database
  // file's mode, so all three are private. Existing ones are narrowed too.
  fs.closeSync(fs.openSync(file, "a", privateFileMode));
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  for (const f of [file, `${file}-wal`, `${file}-shm`]) ensurePrivateFile(f);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // data_version moves when another connection (the `outpost user` command, another process) commits.
  // Reading it takes a WAL read lock, ~6 µs: it is read at most once per millisecond, so another
  // process's commit is seen within a millisecond or so (this process's own writes at once). A
  // timer ends each millisecond: asked for on every call, a clock reading cost more than the flag.
  const dataVersion = sqlite.prepare("PRAGMA data_version").pluck();
  let seenVersion = dataVersion.get();
  let checkedLately = false;
  const generation = new WriteGeneration(true, () => {
    if (checkedLately) return false;
    if (!sqlite.open) return true;
    checkedLately = true;
    setTimeout(() => {
      checkedLately = false;
    }, 1).unref();
    const version = dataVersion.get();
    if (version === seenVersion) return false;
    seenVersion = version;
    return true;
  });
  const db = new Kysely<Database>({
    dialect: countingWrites(new SqliteDialect({ database: withStatementCache(sqlite) }), generation),
  });
  registerWriteGeneration(db, generation);
  const scrub = async () => {
    sqlite.exec("VACUUM");
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
  };
  return { db, dialect: "sqlite", scrub, followOtherWriters: () => {}, close: () => db.destroy() };
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrate(opened: OpenedDatabase): Promise<string[]> {
  const migrator = new Migrator({ db: opened.db, provider: migrations(opened.dialect) });
  const { error, results } = await withIsoDatesFromUtcFields(() => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  // Every table notifies its writes, also one a later migration added (write-notifications.ts).
  if (opened.dialect === "postgres") await notifyOnEveryTable(opened.db);
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Runs `work` with Date#toISOString made from the date's UTC fields. Kysely's migrator dates each
 * migration it applies with toISOString, and V8's first toISOString loads ICU's time-zone and
 * locale data: 0.6-0.8 MiB that a panel started on an empty database kept at idle (issue 41), when
 * nothing else there asks for it. The same text for every date of the years 0-9999; any other date
 * (and an invalid one, which throws) goes to V8's own.
 */
async function withIsoDatesFromUtcFields<T>(work: () => Promise<T>): Promise<T> {
  const v8IsoString = Date.prototype.toISOString;
  const digits = (n: number, width = 2) => String(n).padStart(width, "0");
  Date.prototype.toISOString = function (this: Date): string {
    const year = this.getUTCFullYear();
    if (!(year >= 0 && year <= 9999)) return v8IsoString.call(this);
    const day = `${digits(year, 4)}-${digits(this.getUTCMonth() + 1)}-${digits(this.getUTCDate())}`;
    const time = `${digits(this.getUTCHours())}:${digits(this.getUTCMinutes())}:${digits(this.getUTCSeconds())}`;
    return `${day}T${time}.${digits(this.getUTCMilliseconds(), 3)}Z`;
  };
  try {
    return await work();
  } finally {
    Date.prototype.toISOString = v8IsoString;
  }
}
