import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";

/** Go RE2 inline flags a pattern may start with, as JavaScript flags. */
const inlineFlags = /^\(\?([imsU]+)\)/;

/**
 * `alterfile`: every occurrence of `search` in the file replaced by
 * `replace`. With `regex`, the Go panel compiles `(?m)` + search (so `^`
 * and `$` match at line ends) and inserts the replacement literally (no
 * `$1`); the same here. Leading inline flags such as `(?i)` become
 * JavaScript flags.
 */
export async function alterfileStep(op: OperationOf<"alterfile">, ctx: StepContext): Promise<void> {
  ctx.notice("changingFile", { file: op.file });
  const handle = await ctx.sandbox.openRead(op.file);
  let text: string;
  try {
    text = await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
  let altered: string;
  if (op.regex) {
    let source = op.search;
    let flags = "gm";
    const inline = inlineFlags.exec(source);
    if (inline) {
      source = source.slice(inline[0].length);
      flags += inline[1].replace(/[mU]/g, "");
    }
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, flags);
    } catch (error) {
      throw installErrors.failed(
        ctx.step,
        `bad regular expression ${op.search}: ${(error as Error).message}`,
        {},
        { cause: error },
      );
    }
    altered = text.replace(pattern, () => op.replace);
  } else {
    altered = op.search === "" ? text : text.split(op.search).join(op.replace);
  }
  await ctx.sandbox.writeFile(op.file, altered);
}
