import { type Compilable, CompiledQuery, type Kysely } from "kysely";

/** Stands where a call's value goes while a query is built the first time. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * Queries of a fixed shape that Kysely builds and compiles once, on first
 * use, and then runs with each call's values. On the hot read paths (every
 * request's session lookup, the big lists) building a query with Kysely cost
 * more than SQLite took to answer it (issue 12's profile).
 *
 * `build` receives stand-ins for the values, in the order of `values`; they
 * must go where Kysely binds values as parameters (comparisons, `in`, limit,
 * offset), never into SQL text. A stand-in that does not come out as a
 * parameter is refused when the query is first built.
 */
export class CompiledQueries {
  private readonly compiled = new Map<string, CompiledQuery<unknown>>();

  constructor(private readonly db: Kysely<never>) {}

  /** Runs the query named `shape` (built by `build` the first time) with `values`; its rows. */
  async rows<A extends unknown[], R>(
    shape: string,
    values: A,
    build: (...slots: A) => Compilable<R>,
  ): Promise<R[]> {
    let query = this.compiled.get(shape) as CompiledQuery<R> | undefined;
    if (!query) {
      query = build(...(values.map((_, i) => new Slot(i)) as A)).compile();
      const bound = new Set(query.parameters.filter((p) => p instanceof Slot).map((p) => (p as Slot).index));
      if (bound.size !== values.length)
        throw new Error(`query ${shape}: a value is not bound as a parameter`);
      this.compiled.set(shape, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.index] : p));
    const result = await this.db.executeQuery(CompiledQuery.raw(query.sql, parameters) as CompiledQuery<R>);
    return result.rows;
  }

  /** The first row, or undefined. */
  async first<A extends unknown[], R>(
    shape: string,
    values: A,
    build: (...slots: A) => Compilable<R>,
  ): Promise<R | undefined> {
    return (await this.rows(shape, values, build))[0];
  }
}

const perDatabase = new WeakMap<object, CompiledQueries>();

/** The compiled queries kept for this database handle. */
export function compiledQueries<DB>(db: Kysely<DB>): CompiledQueries {
  let queries = perDatabase.get(db);
  if (!queries) {
    queries = new CompiledQueries(db as unknown as Kysely<never>);
    perDatabase.set(db, queries);
  }
  return queries;
}
