import { createHash } from "node:crypto";
import type { OperationOf } from "../../../templates/index.ts";
import { readStreamOf } from "../../sandbox/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getJson } from "../http.ts";
import { downloadTo } from "../transfers.ts";

interface LauncherManifest {
  latest?: { release?: string; snapshot?: string };
  versions?: { id: string; url: string }[];
}

interface VersionDocument {
  downloads?: Record<string, { url: string; sha1?: string; size?: number }>;
}

/**
 * `mojangdl`: the vanilla server jar. The launcher's version manifest
 * names the version (`latest`/`release`, `snapshot`, or an id), the
 * version's document names the server download, which is saved to the
 * target and checked against Mojang's SHA-1.
 */
export async function mojangdlStep(op: OperationOf<"mojangdl">, ctx: StepContext): Promise<void> {
  const manifest = await getJson<LauncherManifest>(ctx, ctx.sources.mojangManifest);
  const wanted =
    op.version === "latest" || op.version === "release"
      ? manifest.latest?.release
      : op.version === "snapshot"
        ? manifest.latest?.snapshot
        : op.version;
  const version = manifest.versions?.find((entry) => entry.id === wanted);
  if (!wanted || !version) {
    ctx.notice("minecraftMissing", { version: String(wanted ?? op.version) });
    throw installErrors.failed(
      ctx.step,
      `Minecraft version ${op.version} is not in Mojang's version manifest`,
    );
  }
  ctx.notice("minecraftJson", { version: version.id, url: version.url });
  const document = await getJson<VersionDocument>(ctx, version.url);
  const server = document.downloads?.server;
  if (!server?.url) throw installErrors.failed(ctx.step, `Minecraft ${version.id} has no server download`);
  ctx.notice("minecraftJar", { url: server.url });
  await downloadTo(ctx, server.url, op.target);
  if (server.sha1) {
    const handle = await ctx.sandbox.openRead(op.target);
    const hash = createHash("sha1");
    try {
      for await (const chunk of readStreamOf(handle)) hash.update(chunk as Buffer);
    } finally {
      await handle.close();
    }
    const actual = hash.digest("hex");
    if (actual !== server.sha1.toLowerCase()) {
      await ctx.sandbox.remove(op.target).catch(() => {});
      throw installErrors.failed(ctx.step, `the server jar's SHA-1 is ${actual}, Mojang says ${server.sha1}`);
    }
  }
}
