/**
 * Go duration strings, as the `sleep` operation takes them: "5s", "1m30s",
 * "1.5h", "250ms". Returns milliseconds, or undefined when the text is not a
 * duration.
 */
const unitMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const whole = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

export function parseGoDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "0") return 0;
  if (!whole.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(part)) total += Number(amount) * unitMs[unit];
  return trimmed.startsWith("-") ? -total : total;
}
