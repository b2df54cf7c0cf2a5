import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext, StepResult } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getJson } from "../http.ts";
import { fillSource } from "../sources.ts";
import { cachedFile, copyInto } from "../transfers.ts";

/**
 * `forgedl`: the Forge installer for a version (`mc-forge`); without one,
 * the latest Forge build for `minecraftVersion` per Forge's promotions. The
 * version used goes to `outputVariable`.
 */
export async function forgedlStep(op: OperationOf<"forgedl">, ctx: StepContext): Promise<StepResult> {
  let version = op.version ?? "";
  if (!version) {
    if (!op.minecraftVersion)
      throw installErrors.failed(ctx.step, "neither a Forge version nor a Minecraft version was given");
    const promotions = await getJson<{ promos?: Record<string, string> }>(ctx, ctx.sources.forgePromotions);
    const build = promotions.promos?.[`${op.minecraftVersion}-latest`];
    if (!build)
      throw installErrors.failed(
        ctx.step,
        `no Forge build is available for Minecraft ${op.minecraftVersion}`,
      );
    version = `${op.minecraftVersion}-${build}`;
  }
  ctx.notice("forgeInstaller", { version });
  const file = await cachedFile(ctx, fillSource(ctx.sources.forgeInstaller, { version }));
  try {
    await copyInto(ctx, file.path, op.target);
  } finally {
    await file.release();
  }
  return { variables: op.outputVariable ? { [op.outputVariable]: version } : {} };
}
