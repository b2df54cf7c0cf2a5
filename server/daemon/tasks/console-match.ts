import type { RE2JS } from "re2js";
import { re2 } from "../re2.ts";

/**
 * Only the start of a long line is looked at, and only so many lines of one console chunk; all
 * the console patterns of one server share one budget a chunk.
 */
export const matchLimits = {
  lineChars: 1000,
  linesPerChunk: 200,
  chunkBudgetMs: 50,
  /** The first pattern tried on a chunk may see all of it for this long, so every pattern gets its turn at a whole chunk. */
  firstPatternMs: 150,
  pauseMs: 60_000,
  /**
   * Instructions a pattern may compile to: RE2 is linear in the line times the program, so one
   * line of 1,000 characters costs a pattern at most a million steps (`(x|[a-b]{1,50}){1,20}`,
   * 2,082 instructions, would take about 18 s over one chunk's 200 lines in a single call, by its
   * measured 23 s over 256 KiB).
   */
  programSize: 1000,
} as const;

/**
 * A task's console pattern, compiled by RE2's JavaScript port: matching takes time linear in the
 * line, whatever the pattern (V8's own engine backtracks: `(a+)+$` on a 40-character chat line
 * would hold the node's event loop for hours). Throws when RE2 cannot run the pattern
 * (lookarounds and back-references have no linear-time match): the node refuses such a task.
 * Needs loadRe2() awaited first (re2.ts).
 */
export function compileConsolePattern(pattern: string): RE2JS {
  const compiled = re2().compile(pattern);
  const size = compiled.matcher("").programSize();
  if (size > matchLimits.programSize) {
    throw new Error(`it compiles to ${size} instructions, more than ${matchLimits.programSize}`);
  }
  return compiled;
}

/** The lines of a chunk that patterns look at, cut once for all of a server's tasks. */
export function consoleLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .slice(0, matchLimits.linesPerChunk)
    .map((line) => line.slice(0, matchLimits.lineChars));
}

export class ConsoleMatcher {
  private readonly pattern: RE2JS;
  private pausedUntil = 0;

  constructor(
    pattern: string,
    private readonly now: () => number = Date.now,
  ) {
    this.pattern = compileConsolePattern(pattern);
  }

  get paused(): boolean {
    return this.now() < this.pausedUntil;
  }

  /**
   * Whether a line matches; a paused matcher tries nothing. Past `deadline` (performance.now())
   * no further line is tried: the chunk's budget is spent.
   */
  test(lines: string[], deadline = Number.POSITIVE_INFINITY): boolean {
    if (this.paused) return false;
    for (const line of lines) {
      if (this.pattern.matcher(line).find()) return true;
      if (performance.now() > deadline) return false;
    }
    return false;
  }

  /** Leaves this pattern out for a while (it took a whole chunk's budget alone). */
  pause(): void {
    this.pausedUntil = this.now() + matchLimits.pauseMs;
  }
}
