/**
 * Cron schedules of tasks, read by croner in a time zone: the standard five
 * fields (minute hour day-of-month month day-of-week, with `*`, lists,
 * ranges, steps — also `5/15`, "from 5 in steps of 15" — and the names
 * jan…dec / sun…sat), croner's L, W, # and ? in the day fields, and the
 * shorthands @hourly, @daily (@midnight), @weekly, @monthly, @yearly
 * (@annually). Browser-safe: the node schedules with it and the client
 * shows the next runs with it. This module only checks what croner's own
 * errors would say less plainly (the field count, which field is wrong).
 *
 * As in Vixie cron: when both day fields are restricted a day matching
 * either one fires; a wall time that a daylight-saving jump skips fires at
 * the first minute after the gap (a job at a fixed time, `30 2 * * *`) or
 * not at all (an interval, every 15 minutes); one the jump repeats fires
 * once for a fixed time, twice for an interval (it keeps its pace).
 */
import { Cron } from "croner";

export interface CronSchedule {
  cron: Cron;
  timeZone: string;
}

export class CronError extends Error {}

const shorthands = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);

const fields = [
  { name: "minute", range: "0-59" },
  { name: "hour", range: "0-23" },
  { name: "day of month", range: "1-31" },
  { name: "month", range: "1-12 or jan-dec" },
  { name: "day of week", range: "0-7 or sun-sat" },
];

const everyMinute = ["*", "*", "*", "*", "*"];

function cronOf(pattern: string, timeZone: string): Cron {
  return new Cron(pattern, {
    paused: true,
    timezone: timeZone,
    mode: "5-part",
    // "5/15" as other crons read it (5-59/15), not refused.
    sloppyRanges: true,
    // A list or range of fixed times ("30 2,14 * * *") fires once in a repeated hour, as in Vixie cron.
    fixedTimeRule: "no-wildcard",
  });
}

/** Croner's reason, without its prefix. */
function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^CronPattern:\s*/, "");
}

/** Parses an expression; throws CronError saying which field is wrong. */
export function parseCron(expression: string, timeZone = "UTC"): CronSchedule {
  const text = expression.trim();
  const shorthand = text.toLowerCase();
  if (text.startsWith("@") && !shorthands.has(shorthand)) throw new CronError(`unknown shorthand "${text}"`);
  const parts = text.split(/\s+/);
  if (!shorthands.has(shorthand) && parts.length !== 5) {
    throw new CronError(`a schedule has 5 fields (minute hour day month weekday), not ${parts.length}`);
  }
  checkTimeZone(timeZone);
  try {
    return { cron: cronOf(shorthands.has(shorthand) ? shorthand : parts.join(" "), timeZone), timeZone };
  } catch (error) {
    throw fieldError(parts, error);
  }
}

/** Which field croner refused: each one alone, the others `*`. */
function fieldError(parts: string[], whole: unknown): CronError {
  for (const [i, part] of parts.entries()) {
    const alone = everyMinute.map((any, j) => (j === i ? part : any)).join(" ");
    try {
      cronOf(alone, "UTC");
    } catch (error) {
      const { name, range } = fields[i];
      if (error instanceof RangeError) return new CronError(`${name}: "${part}" is outside ${range}`);
      return new CronError(`${name}: "${part}" is not valid (${reason(error)})`);
    }
  }
  return new CronError(reason(whole));
}

export function checkTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    throw new CronError(`unknown time zone "${timeZone}"`);
  }
}

/**
 * The first run strictly after `after` (ms since the epoch), or undefined
 * when the schedule never fires (31 February).
 */
export function nextRun(s: CronSchedule, after: number): number | undefined {
  return s.cron.nextRun(new Date(after))?.getTime();
}

/** The next `count` runs after `after`; fewer when the schedule stops firing. */
export function nextRuns(s: CronSchedule, after: number, count: number): number[] {
  return s.cron.nextRuns(count, new Date(after)).map((d) => d.getTime());
}
