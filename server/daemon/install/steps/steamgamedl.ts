import { randomInt } from "node:crypto";
import fsp from "node:fs/promises";
import { type OperationOf, splitCommandLine } from "../../../templates/index.ts";
import { Sandbox } from "../../sandbox/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { getJson, getText } from "../http.ts";
import { serialized } from "../serialize.ts";
import { fetchAndExtract } from "../transfers.ts";

const program = process.platform === "win32" ? "DepotDownloader.exe" : "DepotDownloader";

interface GithubRelease {
  assets?: { name: string; browser_download_url: string }[];
}

/**
 * `steamgamedl`: a Steam app through DepotDownloader, as the Go panel does
 * it: DepotDownloader fetched once into the node's binaries folder (the
 * newest GitHub release with a build for this host), Steam's client
 * runtime unpacked into the server's `.steam` folder, then DepotDownloader
 * run twice, once for the manifests and once for the files, after which the
 * files Steam lists without flags are made executable (Steam keeps no
 * permission bits). Needs github.com and Steam's servers.
 */
export async function steamgamedlStep(op: OperationOf<"steamgamedl">, ctx: StepContext): Promise<void> {
  ctx.notice("steamApp", { app: String(op.appId) });
  const depotDownloader = await ensureDepotDownloader(ctx);
  await steamRuntime(ctx);

  const login = ["-loginid", String(randomInt(2 ** 31))];
  const account = op.username
    ? ["-username", op.username, "-remember-password", ...(op.password ? ["-password", op.password] : [])]
    : [];
  const extra = op.extraArgs ? splitCommandLine(op.extraArgs) : [];
  // DepotDownloader draws progress bars unless told the terminal cannot.
  const env = { ...ctx.env, TERM: "pufferpanel" };

  await ctx.sandbox.remove(".manifest", { recursive: true }).catch(() => {});
  const manifests = await ctx.sandbox.mkdirp(".manifest");
  ctx.notice("steamManifests");
  await ctx.run(
    [
      depotDownloader,
      "-app",
      op.appId,
      "-dir",
      manifests.path,
      ...login,
      "-manifest-only",
      ...account,
      ...extra,
    ],
    { env },
  );
  ctx.notice("steamFiles");
  await ctx.run(
    [depotDownloader, "-app", op.appId, "-dir", ctx.root, ...login, "-validate", ...account, ...extra],
    { env },
  );

  for (const file of (await fsp.readdir(manifests.path)).sort()) {
    if (file.endsWith(".txt")) await markExecutables(ctx, `.manifest/${file}`);
  }
  if (ctx.sandbox.existsSync("srcds_run")) await makeExecutable(ctx, "srcds_run");
}

async function ensureDepotDownloader(ctx: StepContext): Promise<string> {
  const binariesDir = ctx.binariesDir;
  if (!binariesDir)
    throw installErrors.failed(ctx.step, "this node has no binaries folder to keep DepotDownloader in");
  return serialized(`depotdownloader:${binariesDir}`, async () => {
    await fsp.mkdir(binariesDir, { recursive: true });
    const binaries = new Sandbox(binariesDir);
    const existing = await binaries.resolve(`depotdownloader/${program}`);
    if (existing.stats?.isFile() && existing.stats.size > 0) return existing.path;
    const releases = await getJson<GithubRelease[]>(ctx, ctx.sources.depotDownloaderReleases, {
      accept: "application/vnd.github+json",
    });
    const os = process.platform === "win32" ? "windows" : process.platform === "darwin" ? "macos" : "linux";
    const arch = process.arch === "arm64" ? "arm64" : "x64";
    const asset = (Array.isArray(releases) ? releases : [])
      .flatMap((release) => release.assets ?? [])
      .find((a) => a.name.toLowerCase().includes(os) && a.name.toLowerCase().includes(arch));
    if (!asset)
      throw installErrors.failed(
        ctx.step,
        `no DepotDownloader build for ${os}-${arch} in its GitHub releases`,
      );
    ctx.notice("depotDownloader", { asset: asset.name });
    await binaries.remove("depotdownloader", { recursive: true }).catch(() => {});
    await fetchAndExtract(ctx, asset.browser_download_url, binaries, "depotdownloader", "zip");
    const installed = await binaries.resolve(`depotdownloader/${program}`);
    if (!installed.stats?.isFile()) throw installErrors.failed(ctx.step, `${asset.name} holds no ${program}`);
    await fsp.chmod(installed.path, 0o755);
    return installed.path;
  });
}

/** Steam's client runtime (steamclient.so and friends) in `.steam`, where DepotDownloader looks for it. */
async function steamRuntime(ctx: StepContext): Promise<void> {
  const index = await getText(ctx, `${ctx.sources.steamClient}steam_cmd_linux`);
  const name = /"(steamcmd_bins_linux\.zip\.[a-zA-Z0-9]+)"/.exec(index)?.[1];
  if (!name)
    throw installErrors.failed(ctx.step, "Steam's client manifest names no steamcmd_bins_linux archive");
  await ctx.sandbox.remove(".steam", { recursive: true }).catch(() => {});
  await fetchAndExtract(ctx, `${ctx.sources.steamClient}${name}`, ctx.sandbox, ".steam", "zip");
  for (const [from, to] of [
    ["linux32", "sdk32"],
    ["linux64", "sdk64"],
  ]) {
    if (ctx.sandbox.existsSync(`.steam/${from}`)) await ctx.sandbox.rename(`.steam/${from}`, `.steam/${to}`);
  }
}

/** DepotDownloader's manifest: 8 header lines, then `size chunks sha flags name` (names may hold spaces). */
async function markExecutables(ctx: StepContext, manifest: string): Promise<void> {
  const handle = await ctx.sandbox.openRead(manifest);
  const lines: string[] = [];
  try {
    for await (const line of handle.readLines({ autoClose: false })) lines.push(line);
  } finally {
    await handle.close();
  }
  for (const line of lines.slice(8)) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 5 || parts[0] === "Size" || parts[3] !== "0") continue;
    const name = parts.slice(4).join(" ");
    if (ctx.sandbox.existsSync(name)) await makeExecutable(ctx, name).catch(() => {});
  }
}

async function makeExecutable(ctx: StepContext, name: string): Promise<void> {
  const handle = await ctx.sandbox.openRead(name);
  try {
    await handle.chmod(0o755);
  } finally {
    await handle.close();
  }
}
