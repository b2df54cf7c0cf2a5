import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext, StepResult } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getText } from "../http.ts";
import { fillSource } from "../sources.ts";
import { cachedFile, copyInto } from "../transfers.ts";
import { newest } from "../versions.ts";

/**
 * `neoforgedl`: the NeoForge installer for a version; without one, the
 * newest NeoForge build for `minecraftVersion` in NeoForge's Maven
 * metadata (NeoForge numbers builds after the Minecraft version without its
 * leading `1.`). The version used goes to `outputVariable`.
 */
export async function neoforgedlStep(op: OperationOf<"neoforgedl">, ctx: StepContext): Promise<StepResult> {
  if (!op.target) throw installErrors.failed(ctx.step, "no target file was given");
  let version = op.version ?? "";
  if (!version) {
    if (!op.minecraftVersion)
      throw installErrors.failed(ctx.step, "neither a NeoForge version nor a Minecraft version was given");
    const metadata = await getText(ctx, ctx.sources.neoforgeMetadata);
    const prefix = op.minecraftVersion.replace(/^1\./, "");
    const versions = [...metadata.matchAll(/<version>\s*([^<\s]+)\s*<\/version>/g)]
      .map((match) => match[1])
      .filter((candidate) => candidate.startsWith(prefix));
    const found = newest(versions);
    if (!found)
      throw installErrors.failed(
        ctx.step,
        `no NeoForge build is available for Minecraft ${op.minecraftVersion}`,
      );
    version = found;
  }
  ctx.notice("neoforgeInstaller", { version });
  const file = await cachedFile(ctx, fillSource(ctx.sources.neoforgeInstaller, { version }));
  try {
    await copyInto(ctx, file.path, op.target);
  } finally {
    await file.release();
  }
  return { variables: op.outputVariable ? { [op.outputVariable]: version } : {} };
}
