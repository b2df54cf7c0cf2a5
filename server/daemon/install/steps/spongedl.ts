import type { OperationOf } from "../../../templates/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getJson } from "../http.ts";
import { cachedFile, copyInto } from "../transfers.ts";
import { forgedlStep } from "./forgedl.ts";

interface SpongeVersions {
  artifacts?: Record<string, unknown>;
}

interface SpongeVersion {
  assets?: { classifier?: string; downloadUrl?: string; extension?: string }[];
}

/**
 * `spongedl`: SpongeVanilla as server.jar, or SpongeForge as
 * mods/spongeforge.jar plus the Forge installer (forge-installer.jar) for
 * its Minecraft version. Without `spongeVersion`, the newest (recommended,
 * when asked) build for `minecraftVersion` per Sponge's artifact API.
 */
export async function spongedlStep(op: OperationOf<"spongedl">, ctx: StepContext): Promise<void> {
  const type = op.spongeType.toLowerCase();
  if (type !== "spongevanilla" && type !== "spongeforge") {
    throw installErrors.failed(
      ctx.step,
      `unknown Sponge type ${op.spongeType} (spongevanilla or spongeforge)`,
    );
  }
  const base = `${ctx.sources.spongeApi}${type}/versions`;
  let version = op.spongeVersion ?? "";
  if (!version) {
    const query = new URLSearchParams({ limit: "1" });
    if (op.minecraftVersion) query.set("tags", `minecraft:${op.minecraftVersion}`);
    if (op.recommended) query.set("recommended", "true");
    const list = await getJson<SpongeVersions>(ctx, `${base}?${query}`);
    version = Object.keys(list.artifacts ?? {})[0] ?? "";
    if (!version) throw installErrors.failed(ctx.step, "no matching Sponge versions were found");
  }
  const details = await getJson<SpongeVersion>(ctx, `${base}/${encodeURIComponent(version)}`);
  const classifier = type === "spongevanilla" ? "" : "universal";
  const asset = details.assets?.find((a) => (a.classifier ?? "") === classifier && a.extension === "jar");
  if (!asset?.downloadUrl)
    throw installErrors.failed(ctx.step, `Sponge ${version} has no ${classifier || "server"} jar`);
  const file = await cachedFile(ctx, asset.downloadUrl);
  try {
    if (type === "spongevanilla") {
      await copyInto(ctx, file.path, "server.jar");
      return;
    }
    await forgedlStep(
      { type: "forgedl", minecraftVersion: op.minecraftVersion, target: "forge-installer.jar" },
      ctx,
    );
    await copyInto(ctx, file.path, "mods/spongeforge.jar");
  } finally {
    await file.release();
  }
}
