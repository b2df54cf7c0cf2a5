import { Transform } from "node:stream";
import { type DiskQuota, diskLimitReached, folderBytes } from "./disk-quota.ts";

/** How long a measurement is reused by default: du over a large server takes a while. */
export const defaultMaxAgeMs = 5000;
/** A measurement overtaken by a write of the daemon is taken again, at most this many times. */
const measureAttempts = 3;

const MiB = 1024 * 1024;
/** What a new folder adds to the measured use on most file systems (du counts a folder's own size). */
export const newFolderBytes = 4096;

/**
 * One server's disk use as its node knows it: the last measurement, reused
 * for a short while (the watcher, the start check and budgets share it), and
 * the bytes that pieces of work in flight (uploads, SFTP files, extractions,
 * archives, backups) have taken.
 *
 * Concurrent pieces share one reservation: usage is measured when the first
 * of them begins and kept while any runs, and each byte any of them writes
 * counts against the same room, so together they never pass the limit (each
 * measuring on its own would give each the whole room).
 */
export class DiskLedger {
  private measured?: { bytes: number; at: number };
  private measuring?: Promise<{ bytes: number; generation: number }>;
  /** Moves on whenever the daemon changes the files: a measurement begun before is stale. */
  private generation = 0;
  /** Usage when the pieces now running began (set while any runs). */
  private baseline = 0;
  /** Bytes of pieces that ended and left them on disk, since the baseline. */
  private settled = 0;
  /** Bytes taken by the pieces still running. */
  private inFlight = 0;
  private readonly running = new Set<DiskBudget>();

  constructor(readonly quota: () => DiskQuota) {}

  /** Bytes under the server's folders: a measurement at most `maxAgeMs` old, else a new one. */
  async usage(maxAgeMs = defaultMaxAgeMs): Promise<number> {
    let latest = 0;
    for (let attempt = 0; attempt < measureAttempts; attempt++) {
      const known = this.measured;
      if (known && Date.now() - known.at < maxAgeMs) return known.bytes;
      this.measuring ??= this.measure().finally(() => {
        this.measuring = undefined;
      });
      const { bytes, generation } = await this.measuring;
      latest = bytes;
      if (generation === this.generation) return bytes;
    }
    return latest;
  }

  /** The last measurement's bytes, without measuring (undefined when none is kept). */
  get lastMeasured(): number | undefined {
    return this.measured?.bytes;
  }

  /** The daemon changed the files (deleted, restored): the next usage is measured anew. */
  forget(): void {
    this.generation++;
    this.measured = undefined;
  }

  /**
   * The daemon added at most `bytes`: a measurement kept is raised by them
   * rather than dropped (an upper bound: a replaced file's old bytes went),
   * so a run of small writes does not run du for each; one under way is stale.
   */
  private grew(bytes: number): void {
    this.generation++;
    if (this.measured) this.measured = { ...this.measured, bytes: this.measured.bytes + bytes };
  }

  /** The limit in MiB when the server's folders hold more than it, else undefined. */
  async overLimit(maxAgeMs?: number): Promise<number | undefined> {
    const { limitMiB } = this.quota();
    if (limitMiB === undefined) return undefined;
    return (await this.usage(maxAgeMs)) > limitMiB * MiB ? limitMiB : undefined;
  }

  /**
   * A budget for one piece of work, or undefined when the server has no disk
   * limit; refused up front when the folders (and the pieces already running)
   * hold the limit. Every budget must be ended (withBudget does it).
   */
  async budget(): Promise<DiskBudget | undefined> {
    const { limitMiB } = this.quota();
    if (limitMiB === undefined) return undefined;
    const used = await this.usage();
    // Only the first of concurrent pieces sets the baseline: later ones join its count.
    if (this.running.size === 0) {
      this.baseline = used;
      this.settled = 0;
      this.inFlight = 0;
    }
    if (this.total() >= limitMiB * MiB) throw diskLimitReached(limitMiB);
    const budget = new DiskBudget(limitMiB, this);
    this.running.add(budget);
    return budget;
  }

  /**
   * Runs `work` with a budget and ends it however the work ends. `undoneOnFailure`:
   * a failed piece has removed what it wrote (a temporary file, a partial
   * archive), so its bytes are given back; otherwise they stay counted.
   */
  async withBudget<T>(work: (budget?: DiskBudget) => Promise<T>, undoneOnFailure: boolean): Promise<T> {
    const budget = await this.budget();
    let kept = !undoneOnFailure;
    try {
      const result = await work(budget);
      kept = true;
      return result;
    } finally {
      budget?.end(kept);
    }
  }

  /** Runs `make` (a folder, a link) having taken `bytes` of the room for it; they are given back if it fails. */
  reserve<T>(bytes: number, make: () => Promise<T>): Promise<T> {
    return this.withBudget(async (budget) => {
      budget?.take(bytes);
      return make();
    }, true);
  }

  /** Counts bytes a piece is about to write; fails with the disk-limit error past the room. */
  take(budget: DiskBudget, bytes: number): void {
    if (!this.running.has(budget)) throw new Error("a disk budget was used after it ended");
    if (this.total() + bytes > budget.limitMiB * MiB) throw diskLimitReached(budget.limitMiB);
    budget.spent += bytes;
    this.inFlight += bytes;
  }

  end(budget: DiskBudget, kept: boolean): void {
    if (!this.running.delete(budget)) return;
    this.inFlight -= budget.spent;
    if (kept && budget.spent > 0) {
      this.settled += budget.spent;
      this.grew(budget.spent);
    }
  }

  private total(): number {
    return this.baseline + this.settled + this.inFlight;
  }

  private async measure(): Promise<{ bytes: number; generation: number }> {
    const generation = this.generation;
    let bytes = 0;
    const { folders, elsewhere } = this.quota();
    for (const dir of folders) bytes += await folderBytes(dir);
    if (elsewhere) bytes += await elsewhere().catch(() => 0);
    if (generation === this.generation) this.measured = { bytes, at: Date.now() };
    return { bytes, generation };
  }
}

/**
 * What one piece of work may write: its bytes are counted as they go by
 * against the server's shared room, so a zip bomb or an endless upload
 * stops where the limit is rather than after it.
 */
export class DiskBudget {
  /** Bytes this piece has taken. */
  spent = 0;

  constructor(
    readonly limitMiB: number,
    private readonly ledger: DiskLedger,
  ) {}

  /** Counts `bytes` about to be written; fails with the disk-limit error past the room. */
  take(bytes: number): void {
    this.ledger.take(this, bytes);
  }

  /** The piece is over: `kept` when what it wrote stays on disk. Ending twice does nothing. */
  end(kept: boolean): void {
    this.ledger.end(this, kept);
  }

  /** A stream that passes bytes through and counts them against this budget. */
  limiter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        try {
          this.take(chunk.length);
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
  }
}
