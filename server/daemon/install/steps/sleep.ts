import { setTimeout as wait } from "node:timers/promises";
import { type OperationOf, parseGoDuration } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";

/** `sleep`: waits a Go duration ("5s", "1m30s"); cancelling the steps ends the wait. */
export async function sleepStep(op: OperationOf<"sleep">, ctx: StepContext): Promise<void> {
  const ms = parseGoDuration(op.duration);
  if (ms === undefined || ms < 0) {
    throw installErrors.failed(ctx.step, `"${op.duration}" is not a duration such as "5s" or "1m30s"`);
  }
  ctx.notice("sleeping", { duration: String(op.duration) });
  try {
    await wait(ms, undefined, { signal: ctx.signal });
  } catch {
    throw installErrors.cancelled();
  }
}
