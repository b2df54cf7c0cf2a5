import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getJson } from "../http.ts";
import { cachedFile, copyInto } from "../transfers.ts";

/** `fabricdl`: the newest Fabric installer (from Fabric's metadata), as fabric-installer.jar. */
export async function fabricdlStep(_op: OperationOf<"fabricdl">, ctx: StepContext): Promise<void> {
  ctx.notice("fabricMetadata", { url: ctx.sources.fabricInstallers });
  const builds = await getJson<{ url?: string }[]>(ctx, ctx.sources.fabricInstallers);
  const url = Array.isArray(builds) ? builds[0]?.url : undefined;
  if (!url)
    throw installErrors.failed(
      ctx.step,
      "no metadata available from Fabric, unable to download the installer",
    );
  const file = await cachedFile(ctx, url);
  try {
    await copyInto(ctx, file.path, "fabric-installer.jar");
  } finally {
    await file.release();
  }
}
