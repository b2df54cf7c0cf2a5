import path from "node:path";
import type { OperationOf } from "../../../templates/index.ts";
import { extractOpened, zipSingleRoot } from "../../archive/index.ts";
import { Sandbox } from "../../sandbox/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getJson, requestOptional } from "../http.ts";
import { fillSource } from "../sources.ts";
import { cachedFile, copyInto, downloadTo, saveResponse } from "../transfers.ts";

interface CurseFile {
  id: number;
  fileDate?: string;
  fileStatus?: number;
  releaseType?: number;
  isServerPack?: boolean;
  serverPackFileId?: number;
  downloadUrl?: string;
  fileName?: string;
}

interface Addon {
  allowModDistribution?: boolean;
  latestFiles?: CurseFile[];
}

/** File statuses CurseForge serves (approved, and released without review). */
const servedStatuses = new Set([4, 10]);
const releaseType = 1;
const installerJar = /^(neo)?forge-.*-installer\.jar$/;

interface Loader {
  kind: string;
  minecraft?: string;
  version?: string;
  installerVersion?: string;
  installer?: string;
}

/**
 * `curseforge`: a modpack's server pack from CurseForge, unpacked into the
 * server folder (its single top folder dropped), then its mod loader made
 * ready the way the Go panel does it: a Forge/NeoForge installer jar in the
 * pack is run (`<java> -jar … --installServer`); otherwise the pack's
 * variables.txt or manifest.json names the loader and its version, and the
 * Forge/NeoForge installer or Fabric's server launcher is fetched. Needs the
 * node's CurseForge API key (the API refuses anonymous calls).
 */
export async function curseforgeStep(op: OperationOf<"curseforge">, ctx: StepContext): Promise<void> {
  if (!ctx.curseforgeApiKey) {
    throw installErrors.failed(
      ctx.step,
      "this node has no CurseForge API key, which the CurseForge API requires",
    );
  }
  const projectId = Number(op.projectId);
  const fileId = Number(op.fileId || 0);
  if (!Number.isInteger(projectId) || projectId <= 0 || !Number.isInteger(fileId) || fileId < 0) {
    throw installErrors.failed(ctx.step, `"${op.projectId}"/"${op.fileId ?? ""}" are not CurseForge ids`);
  }
  const pack = await serverPack(ctx, projectId, fileId);
  if (!pack.downloadUrl) throw installErrors.failed(ctx.step, `file ${pack.id} has no download URL`);
  ctx.notice("modpackDownloading", { url: pack.downloadUrl });
  const file = await cachedFile(ctx, pack.downloadUrl);
  try {
    const folder = new Sandbox(path.dirname(file.path));
    const handle = await folder.openRead(path.basename(file.path));
    try {
      const top = await zipSingleRoot(handle);
      ctx.notice("modpackExtracting", { pack: String(pack.fileName ?? pack.id) });
      await extractOpened(handle, "zip", ctx.sandbox, "", ctx.signal, top ? 1 : 0, {
        ratio: ctx.extractMaxRatio,
      });
    } finally {
      await handle.close();
    }
  } finally {
    await file.release();
  }

  const loader = await findLoader(ctx);
  if (!loader) {
    ctx.notice("modpackUnknownType");
    return;
  }
  const java = op.java || "java";
  if (loader.kind === "fabric") await installFabric(ctx, loader, java);
  else if (loader.kind === "forge" || loader.kind === "neoforge") await installForge(ctx, loader, java);
  else {
    ctx.notice("modpackUnsupportedLoader", { loader: loader.kind });
    return;
  }
  ctx.notice("modpackInstalled");
}

async function serverPack(ctx: StepContext, projectId: number, fileId: number): Promise<CurseFile> {
  const api = <T>(route: string) =>
    getJson<{ data: T }>(ctx, `${ctx.sources.curseforgeApi}/v1/${route}`, {
      "x-api-key": ctx.curseforgeApiKey ?? "",
    });
  const addon = (await api<Addon>(`mods/${projectId}`)).data;
  if (!addon?.allowModDistribution) {
    throw installErrors.failed(
      ctx.step,
      `project ${projectId} does not allow its files to be downloaded by other programs`,
    );
  }
  let file: CurseFile | undefined;
  if (fileId) file = (await api<CurseFile>(`mods/${projectId}/files/${fileId}`)).data;
  else {
    for (const candidate of addon.latestFiles ?? []) {
      if (!servedStatuses.has(candidate.fileStatus ?? 0) || candidate.releaseType !== releaseType) continue;
      if (!file || Date.parse(candidate.fileDate ?? "") > Date.parse(file.fileDate ?? "")) file = candidate;
    }
  }
  if (!file) throw installErrors.failed(ctx.step, `project ${projectId} has no released files`);
  if (!file.isServerPack && file.serverPackFileId) {
    file = (await api<CurseFile>(`mods/${projectId}/files/${file.serverPackFileId}`)).data;
  }
  if (!file.isServerPack) throw installErrors.failed(ctx.step, `file ${file.id} is not a server pack`);
  return file;
}

async function findLoader(ctx: StepContext): Promise<Loader | undefined> {
  const installer = (await ctx.sandbox.glob("*-installer.jar")).find((name) => installerJar.test(name));
  if (installer) return { kind: installer.startsWith("neoforge") ? "neoforge" : "forge", installer };
  const variables = await readText(ctx, "variables.txt");
  if (variables !== undefined) {
    const values: Record<string, string> = {};
    for (const line of variables.split(/\r?\n/)) {
      const at = line.indexOf("=");
      if (at > 0)
        values[line.slice(0, at).trim()] = line
          .slice(at + 1)
          .trim()
          .replace(/^"|"$/g, "");
    }
    return {
      kind: (values.MODLOADER ?? "").toLowerCase(),
      minecraft: values.MINECRAFT_VERSION,
      version: values.MODLOADER_VERSION,
      installerVersion: values.FABRIC_INSTALLER_VERSION,
    };
  }
  const manifest = await readText(ctx, "manifest.json");
  if (manifest !== undefined) {
    try {
      const parsed = JSON.parse(manifest) as {
        minecraft?: { version?: string; modLoaders?: { id: string; primary?: boolean }[] };
      };
      const primary = parsed.minecraft?.modLoaders?.find((m) => m.primary)?.id ?? "";
      const dash = primary.indexOf("-");
      if (dash > 0)
        return {
          kind: primary.slice(0, dash),
          version: primary.slice(dash + 1),
          minecraft: parsed.minecraft?.version,
        };
    } catch {
      // not a pack manifest
    }
  }
  return undefined;
}

async function readText(ctx: StepContext, name: string): Promise<string | undefined> {
  if (!ctx.sandbox.existsSync(name)) return undefined;
  const handle = await ctx.sandbox.openRead(name);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

async function installFabric(ctx: StepContext, loader: Loader, java: string): Promise<void> {
  const values = {
    mcVersion: loader.minecraft ?? "",
    version: loader.version ?? "",
    installerVersion: loader.installerVersion ?? "",
  };
  const launcher = fillSource(ctx.sources.fabricServerJar, values);
  ctx.notice("downloadingTo", { url: launcher, file: "server.jar" });
  const response = await requestOptional(ctx, launcher);
  if (response) {
    await saveResponse(ctx, response, "server.jar", ctx.sandbox, launcher);
    return;
  }
  // No ready-made launcher for this combination: run Fabric's installer.
  const installer = fillSource(ctx.sources.fabricInstallerJar, values);
  ctx.notice("downloadingTo", { url: installer, file: "fabric-installer.jar" });
  await downloadTo(ctx, installer, "fabric-installer.jar");
  await ctx.run([
    java,
    "-jar",
    "fabric-installer.jar",
    "server",
    "-mcversion",
    values.mcVersion,
    "-loader",
    values.version,
    "-downloadMinecraft",
  ]);
  await ctx.sandbox.remove("fabric-installer.jar").catch(() => {});
  await ctx.sandbox.remove("server.jar").catch(() => {});
  await ctx.sandbox.rename("fabric-server-launch.jar", "server.jar");
}

async function installForge(ctx: StepContext, loader: Loader, java: string): Promise<void> {
  let jar = loader.installer;
  if (!jar) {
    let url: string;
    if (loader.kind === "neoforge")
      url = fillSource(ctx.sources.neoforgeInstaller, { version: loader.version ?? "" });
    else {
      const mc = loader.minecraft ?? "";
      const version = (loader.version ?? "").startsWith(mc)
        ? (loader.version ?? "")
        : `${mc}-${loader.version ?? ""}`;
      url = fillSource(ctx.sources.forgeInstaller, { version });
    }
    const file = await cachedFile(ctx, url);
    try {
      await copyInto(ctx, file.path, "installer.jar");
    } finally {
      await file.release();
    }
    jar = "installer.jar";
  }
  ctx.notice("installerRunning", { jar });
  await ctx.run([java, "-jar", jar, "--installServer"]);
  await ctx.sandbox.remove(jar).catch(() => ctx.notice("installerNotDeleted"));
  await ctx.sandbox.remove(`${jar}.log`).catch(() => {});
  // Before 1.17 Forge leaves a runnable jar; later ones may leave a shim.
  for (const candidate of [jar.replace("-installer", ""), jar.replace("-installer", "-shim")]) {
    if (candidate !== jar && (await ctx.sandbox.resolve(candidate, { followFinal: false })).stats?.isFile()) {
      await ctx.sandbox.rename(candidate, "server.jar");
    }
  }
  if (!ctx.sandbox.existsSync("server.jar")) {
    ctx.notice("serverStarter");
    const file = await cachedFile(ctx, ctx.sources.neoforgeServerStarter);
    try {
      await copyInto(ctx, file.path, "server.jar");
    } finally {
      await file.release();
    }
  }
}
