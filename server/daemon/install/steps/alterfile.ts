import type { RE2JS } from "re2js";
import type { OperationOf } from "../../../templates/index.ts";
import { loadRe2 } from "../../re2.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";

/**
 * How large a file a regular expression may run over. RE2 is linear in the text, but a JavaScript
 * RE2 is slow next to V8's own engine (a 1 MiB file with a match on every line takes about half a
 * second of the node's event loop): templates alter config files of a few kilobytes.
 */
export const regexFileLimit = 1024 * 1024;

/**
 * How much work one regular expression may do on the node's event loop: RE2 is linear in the text
 * *times the pattern's program* (its compiled size), so a short pattern with counted repeats,
 * `(x|[a-b]{1,50}){1,20}$` (2,042 instructions), ran 23 s over 256 KiB. Characters × instructions
 * up to this many: about 0.1 s at the slowest rate measured (40 ns a unit, on a loaded machine);
 * the audit's `(a+)+$` (8 instructions) still runs over 480 KiB, and a config file of a few
 * kilobytes takes patterns of a thousand instructions.
 */
export const regexWorkLimit = 4_000_000;

/**
 * `alterfile`: every occurrence of `search` in the file replaced by
 * `replace`. With `regex`, the Go panel compiles `(?m)` + search (so `^`
 * and `$` match at line ends) with Go's RE2 and inserts the replacement
 * literally (no `$1`); the same here, with RE2's JavaScript port: the same
 * syntax (inline flags such as `(?i)` or `(?U)` included) and matching in
 * linear time, so a pattern a task's author writes cannot backtrack without end.
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
    if (text.length > regexFileLimit) {
      throw installErrors.failed(
        ctx.step,
        `${op.file} is larger than ${regexFileLimit / 1024} KiB, the most a regular expression runs over`,
      );
    }
    const RE2 = await loadRe2();
    let pattern: RE2JS;
    try {
      pattern = RE2.compile(`(?m)${op.search}`);
    } catch (error) {
      throw installErrors.failed(
        ctx.step,
        `bad regular expression ${op.search}: ${(error as Error).message}`,
        {},
        { cause: error },
      );
    }
    const matcher = pattern.matcher(text);
    const work = text.length * matcher.programSize();
    if (work > regexWorkLimit) {
      throw installErrors.failed(
        ctx.step,
        `${op.search} is too large a regular expression for ${op.file}: ${matcher.programSize()} instructions over ${text.length} characters is more than ${regexWorkLimit} (a smaller pattern or a smaller file)`,
      );
    }
    altered = matcher.replaceAll(() => op.replace);
  } else {
    altered = op.search === "" ? text : text.split(op.search).join(op.replace);
  }
  await ctx.sandbox.writeFile(op.file, altered);
}
