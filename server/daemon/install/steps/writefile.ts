import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";

/** `writefile`: the text written to the target (replaced if it exists), folders made as needed. */
export async function writefileStep(op: OperationOf<"writefile">, ctx: StepContext): Promise<void> {
  ctx.notice("writingFile", { file: op.target });
  await ctx.sandbox.writeFile(op.target, op.text);
}
