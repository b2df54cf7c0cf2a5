import type { OperationOf } from "../../../templates/index.ts";
import { createArchive } from "../../archive/index.ts";
import type { StepContext } from "../environment.ts";

/** `archive`: files and folders of the server packed into a zip, tar or tar.gz (by the destination's name). */
export async function archiveStep(op: OperationOf<"archive">, ctx: StepContext): Promise<void> {
  const sources = typeof op.source === "string" ? [op.source] : op.source;
  ctx.notice("archiving", { sources: sources.join(", "), archive: op.destination });
  const count = await createArchive(ctx.sandbox, sources, op.destination, ctx.signal);
  ctx.notice("archived", { count, archive: op.destination });
}
