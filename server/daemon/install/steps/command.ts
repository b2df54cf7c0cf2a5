import { type OperationOf, splitCommandLine } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";

/**
 * `command`: each line run in the server folder with the server's
 * environment, one after the other; a non-zero exit fails the step. No
 * shell, as in the Go panel (templates.md §4): the line is split into words
 * (splitCommandLine), so `&&`, pipes and redirections are plain arguments.
 * No corpus template relies on a shell; one that needs it says `sh -c '…'`.
 */
export async function commandStep(op: OperationOf<"command">, ctx: StepContext): Promise<void> {
  const lines = typeof op.commands === "string" ? [op.commands] : op.commands;
  for (const line of lines) {
    const argv = splitCommandLine(line);
    if (argv.length === 0) continue;
    ctx.notice("executing", { command: line });
    await ctx.run(argv, { label: JSON.stringify(line) });
  }
}
