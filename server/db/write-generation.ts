import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  TransactionSettings,
} from "kysely";

import { unwatchedTables } from "./write-notifications.ts";

/**
 * Statements that only read, or write only a table no kept answer is read from (the activity log:
 * write-notifications.ts): everything else (insert, update, delete, DDL, commit …) counts as a write.
 */
const readOnly = new RegExp(
  `^\\s*(select\\b|(insert\\s+into|delete\\s+from)\\s+"(${unwatchedTables.join("|")})"\\s)`,
  "i",
);

/**
 * A number that changes whenever the database may have changed: after every
 * statement that is not a plain SELECT and after every commit or rollback,
 * run by this process, and (SQLite) whenever another connection — the
 * `outpost user` command, a second process — committed to the same file.
 * Answers kept in memory (sessions, big lists: read-cache.ts) are stamped
 * with it and dropped when it moves, so no write path has to remember to
 * invalidate them.
 *
 * On PostgreSQL, which several panels may share (DESIGN.md), it learns of
 * other connections' commits from the database's notifications
 * (write-notifications.ts): it is enabled only while that listener is
 * connected, and the caches built on it keep nothing while it is disabled.
 */
export class WriteGeneration {
  private value = 0;

  constructor(
    private on: boolean,
    /** Whether another connection committed since the last call (SQLite's data_version). */
    private readonly changedElsewhere: () => boolean = () => false,
  ) {}

  /** Whether answers may be kept on it now. */
  get enabled(): boolean {
    return this.on;
  }

  /** From now on nothing is kept; a load begun before is not kept either (the bump). */
  disable(): void {
    this.on = false;
    this.value++;
  }

  /** Keeping may start again: whatever was read before (while blind to other writers) is dropped. */
  enable(): void {
    this.value++;
    this.on = true;
  }

  /** The generation now. Cheap: one SQLite pragma read at most. */
  current(): number {
    if (this.changedElsewhere()) this.value++;
    return this.value;
  }

  bump(): void {
    this.value++;
  }

  private readonly elsewhere = new Set<() => void>();

  /** Follows commits by other connections, as notifications bring them (PostgreSQL); answers the unsubscribe. */
  onElsewhere(listener: () => void): () => void {
    this.elsewhere.add(listener);
    return () => this.elsewhere.delete(listener);
  }

  /** Another connection committed (write-notifications.ts heard it). */
  bumpFromElsewhere(): void {
    this.bump();
    for (const listener of this.elsewhere) listener();
  }
}

/** Wraps a dialect so that every write through it bumps `generation` (before it runs and once it is done). */
export function countingWrites(dialect: Dialect, generation: WriteGeneration): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new CountingDriver(dialect.createDriver(), generation),
  };
}

/** Our wrapper of a driver's connection, and the driver's own one behind it. */
class CountingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly generation: WriteGeneration,
  ) {}

  async executeQuery<R>(query: CompiledQuery) {
    if (readOnly.test(query.sql)) return this.inner.executeQuery<R>(query);
    this.generation.bump();
    try {
      return await this.inner.executeQuery<R>(query);
    } finally {
      this.generation.bump();
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number) {
    if (!readOnly.test(query.sql)) this.generation.bump();
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class CountingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly generation: WriteGeneration,
  ) {}

  init() {
    return this.inner.init();
  }
  async acquireConnection() {
    return new CountingConnection(await this.inner.acquireConnection(), this.generation);
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(unwrap(connection), settings);
  }
  async commitTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.commitTransaction(unwrap(connection));
    } finally {
      this.generation.bump();
    }
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction(unwrap(connection));
    } finally {
      this.generation.bump();
    }
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    if (!this.inner.savepoint) throw new Error("the driver has no savepoints");
    await this.inner.savepoint(unwrap(connection), name, compile);
  }
  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) {
    if (!this.inner.rollbackToSavepoint) throw new Error("the driver has no savepoints");
    try {
      await this.inner.rollbackToSavepoint(unwrap(connection), name, compile);
    } finally {
      this.generation.bump();
    }
  }
  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) {
    if (!this.inner.releaseSavepoint) throw new Error("the driver has no savepoints");
    await this.inner.releaseSavepoint(unwrap(connection), name, compile);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(unwrap(connection));
  }
  destroy() {
    return this.inner.destroy();
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof CountingConnection ? connection.inner : connection;
}

const perDatabase = new WeakMap<object, WriteGeneration>();
const never = new WriteGeneration(false);

/** Registers the generation of a database handle (done where it is opened). */
export function registerWriteGeneration(db: object, generation: WriteGeneration): void {
  perDatabase.set(db, generation);
}

/** The write generation of a database handle; a disabled one when it was opened without. */
export function writeGeneration(db: object): WriteGeneration {
  return perDatabase.get(db) ?? never;
}
