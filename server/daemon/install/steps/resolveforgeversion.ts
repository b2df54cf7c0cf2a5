import fsp from "node:fs/promises";
import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext, StepResult } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { newest } from "../versions.ts";

type ResolveOp = OperationOf<"resolveforgeversion"> | OperationOf<"resolveneoforgeversion">;

/**
 * `resolveforgeversion` / `resolveneoforgeversion` (run before each start
 * by the Minecraft templates): the installed Forge or NeoForge version, read
 * from the server's own libraries folder (entries with a unix_args.txt, the
 * run-script era), written to `outputVariable`. Offline by nature. A given
 * `version` is passed through; with `minecraftVersion`, only builds for it
 * count; of those, the newest wins.
 */
function resolver(libraries: string, loader: string) {
  return async (op: ResolveOp, ctx: StepContext): Promise<StepResult> => {
    let version = op.version ?? "";
    if (!version) {
      const folder = await ctx.sandbox.resolve(libraries);
      if (!folder.stats?.isDirectory())
        throw installErrors.failed(ctx.step, `${loader} is not installed (no ${libraries})`);
      const candidates: string[] = [];
      for (const entry of (await fsp.readdir(folder.path)).sort()) {
        if (op.minecraftVersion && !entry.startsWith(op.minecraftVersion)) continue;
        if (ctx.sandbox.existsSync(`${libraries}/${entry}/unix_args.txt`)) candidates.push(entry);
      }
      const found = newest(candidates);
      if (!found)
        throw installErrors.failed(
          ctx.step,
          `${loader} is not installed (nothing in ${libraries} has a unix_args.txt)`,
        );
      version = found;
    }
    ctx.notice("loaderResolved", { loader, version });
    return { variables: { [op.outputVariable]: version } };
  };
}

export const resolveforgeversionStep = resolver("libraries/net/minecraftforge/forge", "Forge");
export const resolveneoforgeversionStep = resolver("libraries/net/neoforged/neoforge", "NeoForge");
