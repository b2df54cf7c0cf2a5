import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { OperationOf } from "../../../templates/index.ts";
import { extractOpened } from "../../archive/index.ts";
import { allowedAddresses, fetchChecked } from "../../mods/checked-download.ts";
import { Sandbox } from "../../sandbox/index.ts";
import type { StepContext } from "../environment.ts";
import { installErrors } from "../errors.ts";
import { downloadTo } from "../transfers.ts";

/** The parts of a pack's modrinth.index.json used here (Modrinth's .mrpack format, version 1). */
interface PackIndex {
  formatVersion?: number;
  game?: string;
  name?: string;
  versionId?: string;
  files?: {
    path?: string;
    hashes?: { sha1?: string; sha512?: string };
    env?: { server?: string };
    downloads?: string[];
  }[];
}

const maxFiles = 2000;

/**
 * `mrpack` (an Outpost addition, issue 37): a Modrinth modpack as the server's files. The pack
 * is unpacked into a hidden folder of the server's; every file its index lists for servers is
 * fetched through the public-address guard (the pack's own host aside, which the template
 * chose), checked against its sha512 or sha1 and put at its path in the sandbox; then
 * `overrides/` and `server-overrides/` are merged over the folder. A file that does not match
 * fails the step. The loader itself is the template's to install (fabricdl, forgedl, …), for
 * the versions the pack's `dependencies` name.
 */
export async function mrpackStep(op: OperationOf<"mrpack">, ctx: StepContext): Promise<void> {
  ctx.notice("modpackDownloading", { url: op.url });
  const staging = `.outpost-mrpack-${randomBytes(6).toString("hex")}`;
  const scratch = await fsp.mkdtemp(path.join(os.tmpdir(), "outpost-mrpack-"));
  try {
    await downloadTo(ctx, op.url, "pack.mrpack", new Sandbox(scratch));
    const handle = await new Sandbox(scratch).openRead("pack.mrpack");
    try {
      await extractOpened(handle, "zip", ctx.sandbox, staging, ctx.signal, 0, { ratio: ctx.extractMaxRatio });
    } finally {
      await handle.close();
    }
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
  try {
    const index = await readIndex(ctx, `${staging}/modrinth.index.json`);
    ctx.notice("modpackExtracting", { pack: [index.name, index.versionId].filter(Boolean).join(" ") });
    const allowed = await allowedAddresses([new URL(op.url).hostname]);
    for (const file of index.files ?? []) {
      if (file.env?.server === "unsupported") continue;
      const target = file.path ?? "";
      const url = file.downloads?.[0];
      const hashes = { sha1: file.hashes?.sha1?.toLowerCase(), sha512: file.hashes?.sha512?.toLowerCase() };
      if (!target || !url || (!hashes.sha1 && !hashes.sha512))
        throw installErrors.failed(
          ctx.step,
          `the pack lists ${JSON.stringify(target)} without a URL or hash`,
        );
      ctx.notice("downloadingFile", { url });
      const relative = ctx.sandbox.relative(target);
      await ctx.sandbox.mkdirp(path.posix.dirname(relative));
      const part = `${relative}.${randomBytes(4).toString("hex")}.part`;
      try {
        await fetchChecked(
          ctx.sandbox,
          { url, file: target, hashes: Object.fromEntries(Object.entries(hashes).filter(([, v]) => v)) },
          part,
          allowed,
          ctx.signal,
        );
        await ctx.sandbox.rename(part, relative);
      } catch (error) {
        await ctx.sandbox.remove(part).catch(() => {});
        throw installErrors.failed(ctx.step, `${target}: ${(error as Error).message}`, {}, { cause: error });
      }
    }
    for (const overrides of ["overrides", "server-overrides"])
      await mergeInto(ctx.sandbox, `${staging}/${overrides}`, "");
    ctx.notice("modpackInstalled");
  } finally {
    await ctx.sandbox.remove(staging, { recursive: true }).catch(() => {});
  }
}

async function readIndex(ctx: StepContext, file: string): Promise<PackIndex> {
  let index: PackIndex;
  try {
    const handle = await ctx.sandbox.openRead(file);
    try {
      index = JSON.parse(await handle.readFile("utf8")) as PackIndex;
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw installErrors.failed(
      ctx.step,
      "the pack has no readable modrinth.index.json",
      {},
      { cause: error },
    );
  }
  if (index.game !== "minecraft" || !Array.isArray(index.files) || index.files.length > maxFiles)
    throw installErrors.failed(ctx.step, "the pack's index is not a Minecraft modpack this node can install");
  return index;
}

/** Moves every entry of `from` into `to` (both in the sandbox), folder into folder, files replacing files. */
async function mergeInto(sandbox: Sandbox, from: string, to: string): Promise<void> {
  const source = await sandbox.resolve(from, { followFinal: false });
  if (!source.stats?.isDirectory()) return;
  const { handle, base } = await sandbox.openResolvedFolder(source, from);
  let entries: { name: string; folder: boolean }[];
  try {
    entries = (await fsp.readdir(base, { withFileTypes: true })).map((e) => ({
      name: e.name,
      folder: e.isDirectory(),
    }));
  } finally {
    await handle.close();
  }
  for (const { name, folder } of entries) {
    const target = to ? `${to}/${name}` : name;
    const existing = await sandbox.resolve(target, { followFinal: false });
    if (folder && existing.stats?.isDirectory()) await mergeInto(sandbox, `${from}/${name}`, target);
    else {
      if (existing.stats?.isDirectory()) await sandbox.remove(target, { recursive: true });
      await sandbox.rename(`${from}/${name}`, target);
    }
  }
}
