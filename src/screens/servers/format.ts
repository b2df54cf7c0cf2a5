// Sizes, shares and times in the active locale (Intl): decimal units (kB = 1000 bytes), as Intl
// names them. Used by the sections of the server view (files, backups).

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** A size: "1.5 MB"; below a kilobyte always with the unit in full ("146 bytes"), wherever shown. */
export function formatBytes(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: UNITS[unit],
    unitDisplay: unit === 0 ? "long" : "short",
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  }).format(value);
}

/** A whole percentage, as the locale writes it. */
export function formatPercent(part: number, whole: number, locale: string): string {
  // Rounded down: 100 % only once it is all there.
  const ratio = whole > 0 ? Math.floor((Math.min(part, whole) / whole) * 100) / 100 : 1;
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(ratio);
}

/** Unix seconds as a date and time; `compact` (the narrow layout) gives the numeric date alone. */
export function formatTime(unixSeconds: number, locale: string, compact = false): string {
  const style: Intl.DateTimeFormatOptions = compact
    ? { dateStyle: "short" }
    : { dateStyle: "medium", timeStyle: "short" };
  return new Intl.DateTimeFormat(locale, style).format(new Date(unixSeconds * 1000));
}

/** An ISO date and time as the locale writes it; an unreadable one is shown as it came. */
export function formatDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
}
