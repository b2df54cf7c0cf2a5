import type { WriteGeneration } from "./write-generation.ts";

/**
 * Answers read from the database, kept in memory until the database may have
 * changed: the whole cache is dropped as soon as the write generation moves
 * (any write by this panel, or a commit by another connection: to the SQLite
 * file, or to the PostgreSQL database, heard by notification). A load that
 * began before a write is not kept, so the cache never holds what a finished
 * write replaced. Bounded: when full, it starts over.
 * With a disabled generation (PostgreSQL while its listener is not connected,
 * see write-notifications.ts) it keeps nothing.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, V>();
  private stamp = -1;

  constructor(
    private readonly generation: WriteGeneration,
    private readonly max = 10_000,
  ) {}

  /** The kept value, or undefined. */
  get(key: string): V | undefined {
    if (!this.generation.enabled) return undefined;
    this.dropOlderThan(this.generation.current());
    return this.entries.get(key);
  }

  /** Begins a load: hand the returned stamp to `set` once the value is read. */
  begin(): number {
    return this.generation.enabled ? this.generation.current() : -1;
  }

  /** Keeps a value read since `begin` gave `stamp`, unless the database changed meanwhile. */
  set(key: string, value: V, stamp: number): void {
    if (!this.generation.enabled) return;
    const now = this.generation.current();
    if (now !== stamp) return;
    this.dropOlderThan(now);
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
  }

  /** The kept value, or `load`'s (kept when nothing changed meanwhile). */
  async through(key: string, load: () => Promise<V>): Promise<V> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const stamp = this.begin();
    const value = await load();
    this.set(key, value, stamp);
    return value;
  }

  private dropOlderThan(now: number): void {
    if (now === this.stamp) return;
    this.entries.clear();
    this.stamp = now;
  }
}
