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
