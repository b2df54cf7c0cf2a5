import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";

/** `dockerpull`: pulls an image through the node's Docker engine; a node without one fails the step. */
export async function dockerpullStep(op: OperationOf<"dockerpull">, ctx: StepContext): Promise<void> {
  if (!ctx.docker) {
    throw installErrors.failed(ctx.step, `cannot pull ${op.imageName}: this node has no Docker engine`);
  }
  // The pull writes its own "Pulling image" line.
  await ctx.docker.pull(op.imageName, (text) => ctx.write(text), ctx.signal);
}
