import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";

/** `console`: a line to the running server's input (meant for scheduled tasks); refused when there is none. */
export async function consoleStep(op: OperationOf<"console">, ctx: StepContext): Promise<void> {
  if (!ctx.sendConsole) {
    throw installErrors.failed(ctx.step, "the server is not running, so there is no console to send to");
  }
  ctx.notice("sendingToConsole", { text: op.message });
  ctx.sendConsole(op.message);
}
