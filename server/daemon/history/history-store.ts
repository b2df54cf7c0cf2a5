import fs from "node:fs";
import path from "node:path";
import type { HistoryPoint } from "../../contract/node/history-wire.ts";
import { rollUp, type StoredPoint } from "./roll-up.ts";

export const hourMs = 3_600_000;
/** Raw samples are kept this long... */
export const fineKeepMs = 24 * hourMs;
/** ...and hourly roll-ups this long. */
export const hourlyKeepMs = 30 * 24 * hourMs;

/**
 * One series (a server, or the node itself) in two append-only JSON-lines
 * files in the node's data folder: `<key>.fine.jsonl` (raw samples) and
 * `<key>.hourly.jsonl` (hourly roll-ups). Why files and not SQLite: the
 * daemon ships as one self-contained .mjs file (GET /daemon/bundle) and a
 * native module cannot travel in it; an append is one small write per
 * sample, and a file that only grows between compactions survives a crash
 * with at worst a torn last line, which reading skips.
 *
 * Bounded: at each hour's end the hour is rolled up and the fine file is
 * rewritten without samples older than 24 h (so it never holds more than 25 h
 * of them); the hourly file is rewritten without roll-ups older than 30 days
 * once it holds a day more than that. Memory holds only the current hour's
 * samples, for its roll-up. At the default 30 s a server's files stay under
 * about 250 KB; at the 1 s minimum, about 7 MB.
 */
class Series {
  /** Samples of the hour under way, rolled up when the next hour begins. */
  hour: StoredPoint[] = [];
  /** Roll-ups on file: the hourly file is cut once a day's worth past its bound, not every hour. */
  hourlyLines = 0;
  /** Every write to this series' files, in order: an append never races a rewrite. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly fineFile: string,
    readonly hourlyFile: string,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.then(
      () => {},
      () => {},
    );
    return done;
  }
}

const safeKey = /^[A-Za-z0-9_-]{1,80}$/;

export class HistoryStore {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** The series the folder holds (a restart finds its history again). */
  keys(): string[] {
    const keys = new Set<string>();
    for (const name of fs.readdirSync(this.dir)) {
      const match = /^(.+)\.(fine|hourly)\.jsonl$/.exec(name);
      if (match && safeKey.test(match[1])) keys.add(match[1]);
    }
    return [...keys];
  }

  /**
   * Reads a series back after a restart: hours that ended while the node was
   * down are rolled up from their samples, the current hour's are kept for its
   * roll-up, and both files are cut to their bounds.
   */
  async load(key: string): Promise<void> {
    const series = this.open(key);
    await series.run(async () => {
      const fine = await readPoints(series.fineFile);
      const hourly = await readPoints(series.hourlyFile);
      const lastRolled = hourly.length ? hourly[hourly.length - 1].time : Number.NEGATIVE_INFINITY;
      const thisHour = Math.floor(this.now() / hourMs) * hourMs;
      const missed = rollUp(
        fine.filter((p) => p.time >= lastRolled + hourMs && p.time < thisHour),
        hourMs,
      );
      series.hour = fine.filter((p) => p.time >= thisHour);
      await this.rewrite(series, fine, [...hourly, ...missed]);
    });
  }

  /** Adds one sample; the first of a new hour rolls up the hour before and trims the files. */
  record(key: string, sample: HistoryPoint): Promise<void> {
    const series = this.open(key);
    return series.run(async () => {
      const hour = Math.floor(sample.time / hourMs) * hourMs;
      const ended = series.hour.length > 0 && series.hour[0].time < hour;
      if (ended) {
        const [rolled] = rollUp(series.hour, hourMs);
        series.hour = [];
        await fs.promises.appendFile(series.hourlyFile, `${JSON.stringify(rolled)}\n`, { mode: 0o600 });
        series.hourlyLines++;
      }
      series.hour.push(sample);
      await fs.promises.appendFile(series.fineFile, `${JSON.stringify(sample)}\n`, { mode: 0o600 });
      if (ended) {
        const hourly =
          series.hourlyLines > hourlyKeepMs / hourMs + 24 ? await readPoints(series.hourlyFile) : undefined;
        await this.rewrite(series, await readPoints(series.fineFile), hourly);
      }
    });
  }

  /** Raw samples since `since` (Unix ms), oldest first. */
  async fine(key: string, since: number): Promise<StoredPoint[]> {
    const series = this.series.get(key);
    if (!series) return [];
    return series.run(async () => (await readPoints(series.fineFile)).filter((p) => p.time >= since));
  }

  /** Hourly roll-ups since `since`, the hour under way (rolled up so far) last. */
  async hourly(key: string, since: number): Promise<StoredPoint[]> {
    const series = this.series.get(key);
    if (!series) return [];
    return series.run(async () => {
      const rolled = (await readPoints(series.hourlyFile)).filter((p) => p.time >= since);
      return [...rolled, ...rollUp(series.hour, hourMs)];
    });
  }

  /** Drops a series and its files (its server is gone). */
  async forget(key: string): Promise<void> {
    const series = this.series.get(key);
    if (!series) return;
    this.series.delete(key);
    await series.run(async () => {
      await fs.promises.rm(series.fineFile, { force: true });
      await fs.promises.rm(series.hourlyFile, { force: true });
    });
  }

  /** Every write begun has ended. */
  async flush(): Promise<void> {
    await Promise.all([...this.series.values()].map((s) => s.run(async () => {})));
  }

  private open(key: string): Series {
    if (!safeKey.test(key)) throw new Error(`not a history series name: ${key}`);
    let series = this.series.get(key);
    if (!series) {
      series = new Series(
        path.join(this.dir, `${key}.fine.jsonl`),
        path.join(this.dir, `${key}.hourly.jsonl`),
      );
      this.series.set(key, series);
    }
    return series;
  }

  /** The files cut to their bounds, each replaced whole (a crash leaves the old or the new one). */
  private async rewrite(series: Series, fine: StoredPoint[], hourly?: StoredPoint[]): Promise<void> {
    const now = this.now();
    await replaceFile(
      series.fineFile,
      fine.filter((p) => p.time >= now - fineKeepMs),
    );
    if (!hourly) return;
    const kept = hourly.filter((p) => p.time >= now - hourlyKeepMs);
    await replaceFile(series.hourlyFile, kept);
    series.hourlyLines = kept.length;
  }
}

async function readPoints(file: string): Promise<StoredPoint[]> {
  const text = await fs.promises.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  const points: StoredPoint[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const point = JSON.parse(line) as StoredPoint;
      // A torn line (a crash mid-append) or one out of order (the clock went back) is skipped.
      if (Number.isFinite(point.time) && (!points.length || point.time > points[points.length - 1].time))
        points.push(point);
    } catch {}
  }
  return points;
}

async function replaceFile(file: string, points: StoredPoint[]): Promise<void> {
  const temporary = `${file}.tmp`;
  await fs.promises.writeFile(temporary, points.map((p) => `${JSON.stringify(p)}\n`).join(""), {
    mode: 0o600,
  });
  await fs.promises.rename(temporary, file);
}
