/**
 * Cron schedules of tasks: the standard five fields (minute hour
 * day-of-month month day-of-week, with `*`, lists, ranges, steps and the
 * names jan…dec / sun…sat) and the shorthands @hourly, @daily (@midnight),
 * @weekly, @monthly, @yearly (@annually), read in a time zone. Pure and
 * browser-safe: the node schedules with it and the client shows the next
 * runs with it.
 *
 * As in Vixie cron, when both day fields are restricted a day matching
 * either one fires. A wall time that a daylight-saving jump skips does not
 * fire that day; one the jump repeats fires at its first occurrence only.
 */

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Both day fields restricted: a day matching either fires. */
  dayOr: boolean;
  timeZone: string;
}

const shorthands: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** The first name's value (months count from 1). */
  nameBase?: number;
}

const fieldSpecs: FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: monthNames, nameBase: 1 },
  { name: "day of week", min: 0, max: 7, names: dayNames, nameBase: 0 },
];

export class CronError extends Error {}

function value(text: string, spec: FieldSpec): number {
  const lower = text.toLowerCase();
  const named = spec.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text)) throw new CronError(`${spec.name}: "${text}" is not a number`);
  const n = Number(text);
  if (n < spec.min || n > spec.max) {
    throw new CronError(`${spec.name}: ${n} is outside ${spec.min}-${spec.max}`);
  }
  return n;
}

function parseField(text: string, spec: FieldSpec): { values: Set<number>; any: boolean } {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const [range, stepText, extra] = part.split("/");
    if (extra !== undefined || range === "") throw new CronError(`${spec.name}: "${part}" is not valid`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0) {
        throw new CronError(`${spec.name}: step "${stepText}" is not a positive number`);
      }
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === "*") {
      low = spec.min;
      high = spec.max === 7 ? 6 : spec.max;
    } else if (range.includes("-")) {
      const [a, b, more] = range.split("-");
      if (more !== undefined) throw new CronError(`${spec.name}: "${range}" is not a range`);
      low = value(a, spec);
      high = value(b, spec);
      if (low > high) throw new CronError(`${spec.name}: range "${range}" runs backwards`);
    } else {
      low = value(range, spec);
      // "5/15" means from 5 to the end in steps of 15.
      high = stepText !== undefined ? spec.max : low;
    }
    for (let n = low; n <= high; n += step) values.add(spec.max === 7 && n === 7 ? 0 : n);
  }
  return { values, any: text === "*" };
}

/** Parses an expression; throws CronError saying which field is wrong. */
export function parseCron(expression: string, timeZone = "UTC"): CronSchedule {
  const trimmed = expression.trim();
  const text = shorthands[trimmed.toLowerCase()] ?? trimmed;
  if (text.startsWith("@")) throw new CronError(`unknown shorthand "${trimmed}"`);
  const fields = text.split(/\s+/);
  if (fields.length !== 5) {
    throw new CronError(`a schedule has 5 fields (minute hour day month weekday), not ${fields.length}`);
  }
  checkTimeZone(timeZone);
  const [minutes, hours, days, months, weekdays] = fields.map((f, i) => parseField(f, fieldSpecs[i]));
  return {
    minutes: minutes.values,
    hours: hours.values,
    days: days.values,
    months: months.values,
    weekdays: weekdays.values,
    dayOr: !days.any && !weekdays.any,
    timeZone,
  };
}

export function checkTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    throw new CronError(`unknown time zone "${timeZone}"`);
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const weekdayIndex: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function wallTime(ms: number, timeZone: string): WallTime {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(ms)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: weekdayIndex[parts.weekday],
  };
}

function dayMatches(s: CronSchedule, t: WallTime): boolean {
  if (!s.months.has(t.month)) return false;
  const byDay = s.days.has(t.day);
  const byWeekday = s.weekdays.has(t.weekday);
  return s.dayOr ? byDay || byWeekday : byDay && byWeekday;
}

const minuteMs = 60_000;
/** Far enough for any date that comes round (29 February: within 8 years, 2100 not being leap). */
const horizonMs = 8 * 366 * 24 * 60 * minuteMs;

/**
 * The first run strictly after `after` (ms since the epoch), or undefined
 * when the schedule never fires (31 February). Steps a day, an hour or a
 * minute at a time, so a far date costs a few thousand steps, not millions.
 */
export function nextRun(s: CronSchedule, after: number): number | undefined {
  if (!dayExists(s)) return undefined;
  let t = Math.floor(after / minuteMs) * minuteMs + minuteMs;
  const end = after + horizonMs;
  let lastWall = "";
  while (t <= end) {
    const wall = wallTime(t, s.timeZone);
    if (!dayMatches(s, wall)) {
      // To about 23:00, not midnight: a 23-hour day would make a full day's jump miss the next midnight.
      t += Math.max(60 - wall.minute, (23 - wall.hour) * 60 - wall.minute) * minuteMs;
      continue;
    }
    if (!s.hours.has(wall.hour)) {
      t += (60 - wall.minute) * minuteMs;
      continue;
    }
    if (!s.minutes.has(wall.minute)) {
      t += minuteMs;
      continue;
    }
    // A wall time repeated by a daylight-saving jump back fires once.
    const key = `${wall.year}-${wall.month}-${wall.day} ${wall.hour}:${wall.minute}`;
    if (key !== lastWall && !repeatsEarlier(t, wall, s.timeZone)) return t;
    lastWall = key;
    t += minuteMs;
  }
  return undefined;
}

const monthLength = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether some chosen month has some chosen day (31 February has none), without searching years. */
function dayExists(s: CronSchedule): boolean {
  if (s.dayOr) return true;
  return [...s.months].some((m) => [...s.days].some((d) => d <= monthLength[m]));
}

/** Whether the same wall time already happened within the hour before (a repeated hour). */
function repeatsEarlier(t: number, wall: WallTime, timeZone: string): boolean {
  const before = wallTime(t - 60 * minuteMs, timeZone);
  return (
    before.year === wall.year &&
    before.month === wall.month &&
    before.day === wall.day &&
    before.hour === wall.hour &&
    before.minute === wall.minute
  );
}

/** The next `count` runs after `after`; fewer when the schedule stops firing. */
export function nextRuns(s: CronSchedule, after: number, count: number): number[] {
  const runs: number[] = [];
  let from = after;
  while (runs.length < count) {
    const next = nextRun(s, from);
    if (next === undefined) break;
    runs.push(next);
    from = next;
  }
  return runs;
}
