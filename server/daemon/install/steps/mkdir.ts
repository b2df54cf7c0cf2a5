import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";

/** `mkdir`: the folder and any missing parents; an existing folder is fine. */
export async function mkdirStep(op: OperationOf<"mkdir">, ctx: StepContext): Promise<void> {
  ctx.notice("creatingFolder", { folder: op.target });
  await ctx.sandbox.mkdirp(op.target);
}
