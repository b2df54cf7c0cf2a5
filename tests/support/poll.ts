import type { ChildProcess } from "node:child_process";

/** Polls until `check` returns true or the time is up; answers how long it took. */
export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 200,
): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

/** Waits until the process `pid` is gone (after a kill -9 or a signal sent by the test). */
export async function waitForExit(pid: number, everyMs = 20): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits for a started process to print `line` (its readiness line) in what `output` has
 * collected since `from`: checked on each chunk it writes, not on a timer. Fails when the
 * process exits first or the time is up, with what it printed.
 */
export function waitForLine(
  /** What the process is, for the error ("panel", "daemon"). */
  what: string,
  child: ChildProcess,
  output: () => string,
  line: string,
  timeoutMs: number,
  from = 0,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const streams = [child.stdout, child.stderr].filter((s) => s !== null);
    const done = (error?: Error) => {
      clearTimeout(timer);
      for (const s of streams) s.off("data", check);
      child.off("exit", exited);
      if (error) reject(error);
      else resolve();
    };
    // Added after the caller's collector, so `output` already holds the chunk being looked at.
    const check = () => {
      if (output().slice(from).includes(line)) done();
    };
    const exited = (code: number | null) =>
      done(new Error(`${what} exited with ${code} before "${line}":\n${output()}`));
    const timer = setTimeout(
      () => done(new Error(`${what} did not print "${line}" within ${timeoutMs} ms:\n${output()}`)),
      timeoutMs,
    );
    for (const s of streams) s.on("data", check);
    child.on("exit", exited);
    if (child.exitCode !== null) exited(child.exitCode);
    else check();
  });
}
