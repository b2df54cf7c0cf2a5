import type {
  InstalledMod,
  ModInstallRequest,
  ModSearchView,
  ModSourceId,
  ModVersionView,
  ServerModsView,
} from "../../contract/api/mods.ts";
import { ApiError } from "../../errors.ts";
import type { NodeClient } from "../../link/node-client.ts";
import { variableValues } from "../../templates/index.ts";
import { modlauncherMods, type ResolvedMods, resolveMods } from "../../templates/mods.ts";
import type { Servers } from "../servers.ts";
import type { Settings } from "../settings.ts";
import { CurseForge } from "./curseforge.ts";
import { Hangar } from "./hangar.ts";
import type { ModSource, Recognised, SourceVersion } from "./mod-source.ts";
import { Modrinth } from "./modrinth.ts";

/** An install with its dependencies places at most this many files. */
const maxFiles = 20;

const modsErrors = {
  notOffered: (field: string, problem: string) =>
    new ApiError(409, "ErrModsNotOffered", "this server takes no mods: ${field} ${problem}", {
      field,
      problem,
    }),
  sourceNotOffered: (source: ModSourceId, reason: string) =>
    new ApiError(400, "ErrModSourceNotOffered", "${source} is not offered for this server (${reason})", {
      source,
      reason,
    }),
  tooManyFiles: () =>
    new ApiError(400, "ErrModSourceNotOffered", "${source} names more than ${max} dependencies", {
      source: "dependencies",
      reason: "too many",
      max: maxFiles,
    }),
};

interface Place {
  node: NodeClient;
  target: ResolvedMods;
}

const settingKeys = {
  modrinth: "panel.mods.modrinthUrl",
  hangar: "panel.mods.hangarUrl",
  curseforge: "panel.mods.curseforgeUrl",
} as const;

/**
 * A server's mods and plugins (issue 37): what its template's `mods` says it runs, filled in
 * from its values; the sources asked for that loader and game version; files placed and
 * removed by its node, which downloads them through the public-address guard and checks their
 * hash first. The panel never handles the files themselves.
 */
export class ServerMods {
  private readonly sources: Record<ModSourceId, ModSource>;

  constructor(
    private readonly servers: Servers,
    private readonly settings: Settings,
  ) {
    const setting = (key: string) => async () => String(await this.settings.get(key));
    this.sources = {
      modrinth: new Modrinth(setting(settingKeys.modrinth)),
      hangar: new Hangar(setting(settingKeys.hangar)),
      curseforge: new CurseForge(setting(settingKeys.curseforge), setting("panel.mods.curseforgeKey")),
    };
  }

  private async place(id: string): Promise<Place> {
    const node = await this.servers.nodeOf(id);
    const definition = await node.servers.definition(id);
    const values = variableValues(definition.data);
    const mods = definition.mods ?? modlauncherMods(definition.type, values);
    if (!mods) throw modsErrors.notOffered("mods", "is not in its template");
    const resolved = resolveMods(mods, values);
    if (!resolved.ok) throw modsErrors.notOffered(resolved.field, resolved.problem);
    return { node, target: resolved.mods };
  }

  /** Why a source is not offered, or undefined when it is. */
  private async refusal(
    source: ModSource,
    target: ResolvedMods,
  ): Promise<"off" | "loader" | "key" | undefined> {
    if ((await this.settings.get(`panel.mods.${source.id}Enabled`)) === false) return "off";
    if (!source.serves(target)) return "loader";
    if (source.id === "curseforge" && !(await this.settings.get("panel.mods.curseforgeKey"))) return "key";
    return undefined;
  }

  private async offered(sourceId: ModSourceId, target: ResolvedMods): Promise<ModSource> {
    const source = this.sources[sourceId];
    const refused = await this.refusal(source, target);
    if (refused) throw modsErrors.sourceNotOffered(sourceId, refused);
    return source;
  }

  async list(id: string): Promise<ServerModsView> {
    const { node, target } = await this.place(id);
    const files = await node.mods.list(id, target.folder);
    const sources: ServerModsView["sources"] = [];
    const recognised: Recognised = new Map();
    const unreachable: ModSourceId[] = [];
    for (const source of Object.values(this.sources)) {
      const reason = await this.refusal(source, target);
      sources.push({ id: source.id, available: !reason, ...(reason ? { reason } : {}) });
      const unknown = files.filter((f) => !recognised.has(f.file));
      if (reason || !source.recognise || unknown.length === 0) continue;
      // A source that does not answer leaves its files unrecognised, not the list unanswered.
      const known = await source.recognise(unknown, target).catch(() => {
        unreachable.push(source.id);
        return new Map() as Recognised;
      });
      for (const [file, about] of known) recognised.set(file, about);
    }
    const installed: InstalledMod[] = files.map((f) => ({
      file: f.file,
      size: f.size,
      ...recognised.get(f.file),
    }));
    return { target, sources, installed, unreachable };
  }

  async search(id: string, sourceId: ModSourceId, query: string): Promise<ModSearchView> {
    const { target } = await this.place(id);
    const source = await this.offered(sourceId, target);
    const hits = await source.search(query, target);
    return { source: sourceId, loader: target.loader, version: target.version, hits };
  }

  async versions(id: string, sourceId: ModSourceId, projectId: string): Promise<ModVersionView[]> {
    const { target } = await this.place(id);
    const source = await this.offered(sourceId, target);
    return (await source.versions(projectId, target)).map(({ versionId, versionNumber, file }) => ({
      versionId,
      versionNumber,
      file,
    }));
  }

  /**
   * Installs a version and the required dependencies not yet in the folder (by file name or
   * hash, or a project the source recognises there), all or nothing: the node places none of
   * the files unless every one matched its hash.
   */
  async install(id: string, request: ModInstallRequest): Promise<{ files: string[] }> {
    const { node, target } = await this.place(id);
    const source = await this.offered(request.source, target);
    const chosen = await source.version(request.projectId, request.versionId, target);
    const present = await node.mods.list(id, target.folder);
    const presentHashes = new Set(present.flatMap((f) => [f.sha1, f.sha256, f.sha512]));
    const presentNames = new Set(present.map((f) => f.file));
    const presentProjects = new Set(
      [...((await source.recognise?.(present, target).catch(() => undefined)) ?? new Map()).values()].map(
        (about) => about.projectId,
      ),
    );
    const plan: SourceVersion[] = [chosen];
    const seen = new Set([chosen.projectId, request.projectId]);
    const queue = [...chosen.requires];
    while (queue.length > 0) {
      const dependency = queue.shift() as SourceVersion["requires"][number];
      if (seen.has(dependency.projectId)) continue;
      seen.add(dependency.projectId);
      if (presentProjects.has(dependency.projectId)) continue;
      const version = await this.dependencyVersion(source, dependency, target);
      const hashes = Object.values(version.download.hashes);
      if (presentNames.has(version.file) || hashes.some((h) => presentHashes.has(h))) continue;
      plan.push(version);
      if (plan.length > maxFiles) throw modsErrors.tooManyFiles();
      queue.push(...version.requires);
    }
    await node.mods.install(id, {
      folder: target.folder,
      files: plan.map((v) => v.download),
      trustedHosts: await this.trustedHosts(),
    });
    return { files: plan.map((v) => v.file) };
  }

  /** The version a dependency names when it fits this server, else its newest one that does. */
  private async dependencyVersion(
    source: ModSource,
    dependency: SourceVersion["requires"][number],
    target: ResolvedMods,
  ): Promise<SourceVersion> {
    if (dependency.versionId) {
      const named = await source
        .version(dependency.projectId, dependency.versionId, target)
        .catch(() => undefined);
      if (named) return named;
    }
    const [newest] = await source.versions(dependency.projectId, target);
    if (!newest) {
      throw new ApiError(
        404,
        "ErrModVersionNotFound",
        "${source} has no version ${versionId} of ${projectId} for this server",
        { source: source.id, projectId: dependency.projectId, versionId: dependency.versionId ?? "" },
      );
    }
    return newest;
  }

  async remove(id: string, file: string): Promise<void> {
    const { node, target } = await this.place(id);
    await node.mods.remove(id, target.folder, file);
  }

  /** The hosts of the sources an administrator set: the node may fetch from them whatever their address. */
  private async trustedHosts(): Promise<string[]> {
    const hosts = new Set<string>();
    for (const key of Object.values(settingKeys)) {
      try {
        hosts.add(new URL(String(await this.settings.get(key))).hostname);
      } catch {
        // A setting is checked to be a URL when saved.
      }
    }
    return [...hosts];
  }
}
