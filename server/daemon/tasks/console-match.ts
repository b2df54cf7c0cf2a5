import vm from "node:vm";

/** Only the start of a long line is looked at, and only so many lines of one console chunk. */
export const matchLimits = { lineChars: 1000, linesPerChunk: 200, budgetMs: 50, pauseMs: 60_000 } as const;

// Runs in a context of its own so that V8's watchdog can cut a pattern that backtracks without end.
const script = new vm.Script("lines.some((line) => pattern.test(line))");

/**
 * A task's console-match pattern, run over a chunk of console output under
 * a time budget: a user's regular expression that backtracks badly (say
 * `(a+)+$`) is stopped after budgetMs and the matcher pauses, so one task
 * cannot hold the node's event loop. One call per chunk, not per line: the
 * watchdog costs about a tenth of a millisecond a call.
 */
export class ConsoleMatcher {
  private readonly context: vm.Context;
  private pausedUntil = 0;

  constructor(
    pattern: string,
    private readonly now: () => number = Date.now,
  ) {
    this.context = vm.createContext({ pattern: new RegExp(pattern), lines: [] as string[] });
  }

  /** Whether a line of the text matches; "timeout" when the pattern ran out of time (it then pauses). */
  test(text: string): boolean | "timeout" {
    if (this.now() < this.pausedUntil) return false;
    this.context.lines = text
      .split(/\r?\n/)
      .slice(0, matchLimits.linesPerChunk)
      .map((line) => line.slice(0, matchLimits.lineChars));
    try {
      return script.runInContext(this.context, { timeout: matchLimits.budgetMs }) === true;
    } catch {
      this.pausedUntil = this.now() + matchLimits.pauseMs;
      return "timeout";
    }
  }
}
