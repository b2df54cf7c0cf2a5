import path from "node:path";
import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";

/**
 * `move`: the source may be a Go glob (`paper-*.jar`). Into an existing
 * folder every match keeps its name; otherwise the single match takes the
 * target's name (several matches need a folder). As in the Go panel, a
 * pattern matching nothing moves nothing and the step goes on (the corpus
 * moves optional files, e.g. `forge-*.jar` only some Forge versions make);
 * the console says so.
 */
export async function moveStep(op: OperationOf<"move">, ctx: StepContext): Promise<void> {
  const sources = await ctx.sandbox.glob(op.source);
  if (sources.length === 0) {
    ctx.notice("nothingMoved", { pattern: op.source });
    return;
  }
  const target = await ctx.sandbox.resolve(op.target);
  const intoFolder = target.stats?.isDirectory() ?? false;
  if (!intoFolder && sources.length > 1) {
    throw installErrors.failed(
      ctx.step,
      `${op.source} matches ${sources.length} files, but ${op.target} is not a folder to move them into`,
    );
  }
  const targetPath = ctx.sandbox.relative(op.target);
  for (const source of sources) {
    const destination = intoFolder ? path.posix.join(targetPath, path.posix.basename(source)) : targetPath;
    ctx.notice("moving", { from: source, to: destination });
    await ctx.sandbox.mkdirp(path.posix.dirname(destination));
    await ctx.sandbox.rename(source, destination);
  }
}
