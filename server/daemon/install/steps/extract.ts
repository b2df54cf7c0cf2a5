import type { OperationOf } from "../../../templates/index.ts";
import { extractArchive } from "../../archive/index.ts";
import type { StepContext } from "../environment.ts";

/**
 * `extract`: unpacks an archive of the server folder (zip, tar, tar.gz,
 * tar.xz, tar.bz2, tar.zst, by its name) into a folder of it. Every entry
 * goes through the sandbox: absolute names, names climbing out, and links
 * pointing out stop the step with ErrIllegalFileAccess.
 */
export async function extractStep(op: OperationOf<"extract">, ctx: StepContext): Promise<void> {
  ctx.notice("extracting", { archive: op.source, folder: op.destination || "." });
  const count = await extractArchive(ctx.sandbox, op.source, op.destination, {
    signal: ctx.signal,
    ratio: ctx.extractMaxRatio,
  });
  ctx.notice("extracted", { count, archive: op.source });
}
