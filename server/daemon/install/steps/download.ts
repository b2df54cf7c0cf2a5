import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { downloadNamed } from "../transfers.ts";

/**
 * `download`: each URL fetched into the top of the server folder, streamed,
 * named by Content-Disposition or the URL's last path segment (as the Go
 * panel's grab library names it). An HTTP error or an unreachable host
 * fails the step, naming the host.
 */
export async function downloadStep(op: OperationOf<"download">, ctx: StepContext): Promise<void> {
  const urls = typeof op.files === "string" ? [op.files] : op.files;
  for (const url of urls) {
    ctx.notice("downloadingFile", { url });
    const name = await downloadNamed(ctx, url);
    ctx.notice("downloaded", { url, file: name });
  }
}
