import type { ModSearchHit } from "../../contract/api/mods.ts";
import type { ModFileEntry } from "../../contract/node/mod-wire.ts";
import type { ResolvedMods } from "../../templates/mods.ts";
import {
  askSource,
  baseOf,
  count,
  type ModSource,
  type Recognised,
  type SourceVersion,
  sourceErrors,
  text,
} from "./mod-source.ts";

/** The parts of CurseForge's API v1 answers used here (https://docs.curseforge.com/rest-api/). */
interface File {
  id: number;
  modId: number;
  displayName?: string;
  fileName?: string;
  downloadUrl?: string | null;
  gameVersions?: string[];
  hashes?: { value: string; algo: number }[];
  dependencies?: { modId: number; relationType: number }[];
  fileFingerprint?: number;
}

interface Mod {
  id: number;
  name?: string;
  summary?: string;
  downloadCount?: number;
  logo?: { thumbnailUrl?: string } | null;
  authors?: { name?: string }[];
}

const minecraft = "432";
/** Its class ids: Bukkit plugins, mods, data packs. */
const classes = { plugins: "5", mods: "6", datapacks: "6945" } as const;
/** Its ModLoaderType numbers. */
const loaderTypes: Record<string, string> = { forge: "1", fabric: "4", quilt: "5", neoforge: "6" };
const sha1Algo = 1;
const requiredDependency = 3;

/** CurseForge: needs an API key, an administrator's setting; files carry a sha1. */
export class CurseForge implements ModSource {
  readonly id = "curseforge" as const;

  constructor(
    private readonly baseUrl: () => Promise<string>,
    private readonly key: () => Promise<string>,
  ) {}

  private async ask<T>(
    path: string,
    query: Record<string, string> = {},
    body?: unknown,
  ): Promise<T | undefined> {
    const search = new URLSearchParams(query).toString();
    const url = `${baseOf(await this.baseUrl())}/v1${path}${search ? `?${search}` : ""}`;
    return askSource<T>(this.id, url, {
      headers: { "x-api-key": await this.key() },
      ...(body === undefined ? {} : { method: "POST", body }),
    });
  }

  serves(target: ResolvedMods): boolean {
    return target.kind !== "mods" || loaderTypes[target.loader] !== undefined;
  }

  private filters(target: ResolvedMods): Record<string, string> {
    const filters: Record<string, string> = {};
    if (target.version) filters.gameVersion = target.version;
    const loader = loaderTypes[target.loader];
    if (target.kind === "mods" && loader) filters.modLoaderType = loader;
    return filters;
  }

  async search(query: string, target: ResolvedMods): Promise<ModSearchHit[]> {
    const answer = await this.ask<{ data?: Mod[] }>("/mods/search", {
      gameId: minecraft,
      classId: classes[target.kind],
      searchFilter: query,
      pageSize: "20",
      sortField: "2",
      sortOrder: "desc",
      ...this.filters(target),
    });
    return (answer?.data ?? []).map((mod) => ({
      projectId: String(mod.id),
      title: text(mod.name) || String(mod.id),
      description: text(mod.summary),
      author: text(mod.authors?.[0]?.name),
      downloads: count(mod.downloadCount),
      ...(mod.logo?.thumbnailUrl ? { iconUrl: mod.logo.thumbnailUrl } : {}),
    }));
  }

  async versions(projectId: string, target: ResolvedMods): Promise<SourceVersion[]> {
    if (!/^\d+$/.test(projectId)) return [];
    const answer = await this.ask<{ data?: File[] }>(`/mods/${projectId}/files`, {
      pageSize: "20",
      ...this.filters(target),
    });
    return (answer?.data ?? []).flatMap((file) => this.installable(file) ?? []);
  }

  async version(projectId: string, versionId: string, target: ResolvedMods): Promise<SourceVersion> {
    const ids = /^\d+$/.test(projectId) && /^\d+$/.test(versionId);
    const answer = ids ? await this.ask<{ data?: File }>(`/mods/${projectId}/files/${versionId}`) : undefined;
    const file = answer?.data;
    const installable = file && String(file.modId) === projectId ? this.installable(file) : undefined;
    const fits = !target.version || file?.gameVersions?.includes(target.version);
    if (!installable || !fits) throw sourceErrors.versionNotFound(this.id, projectId, versionId);
    return installable;
  }

  /** A file the author lets others distribute (a download URL) with a sha1 to check. */
  private installable(file: File): SourceVersion | undefined {
    const sha1 = file.hashes?.find((h) => h.algo === sha1Algo)?.value.toLowerCase();
    if (!file.downloadUrl || !file.fileName || !sha1) return undefined;
    return {
      projectId: String(file.modId),
      versionId: String(file.id),
      versionNumber: text(file.displayName) || file.fileName,
      file: file.fileName,
      download: { url: file.downloadUrl, file: file.fileName, hashes: { sha1 } },
      requires: (file.dependencies ?? [])
        .filter((d) => d.relationType === requiredDependency)
        .map((d) => ({ projectId: String(d.modId) })),
    };
  }

  /**
   * Files CurseForge knows by their fingerprint (fingerprint.ts on the node), hand-placed ones
   * too, with the newest file for this server's loader and game version where it differs.
   */
  async recognise(files: ModFileEntry[], target: ResolvedMods): Promise<Recognised> {
    const recognised: Recognised = new Map();
    const fingerprints = files.flatMap((f) => (f.murmur2 === undefined ? [] : [f.murmur2]));
    if (fingerprints.length === 0) return recognised;
    const answer = await this.ask<{ data?: { exactMatches?: { id: number; file?: File }[] } }>(
      `/fingerprints/${minecraft}`,
      {},
      { fingerprints },
    );
    const matches = (answer?.data?.exactMatches ?? []).filter((match) => match.file);
    if (matches.length === 0) return recognised;
    const modIds = [...new Set(matches.map((match) => match.id))];
    const named = await this.ask<{ data?: Mod[] }>("/mods", {}, { modIds, filterPcOnly: false });
    const modOf = new Map((named?.data ?? []).map((mod) => [mod.id, mod]));
    const newest = new Map<number, SourceVersion | undefined>();
    for (const id of modIds) newest.set(id, (await this.versions(String(id), target))[0]);
    for (const local of files) {
      const match = matches.find((m) => m.file?.fileFingerprint === local.murmur2);
      if (!match?.file) continue;
      const mod = modOf.get(match.id);
      const latest = newest.get(match.id);
      recognised.set(local.file, {
        source: this.id,
        projectId: String(match.id),
        versionId: String(match.file.id),
        versionNumber: text(match.file.displayName) || String(match.file.id),
        title: text(mod?.name) || String(match.id),
        ...(mod?.logo?.thumbnailUrl ? { iconUrl: mod.logo.thumbnailUrl } : {}),
        ...(latest && latest.versionId !== String(match.file.id)
          ? { update: { versionId: latest.versionId, versionNumber: latest.versionNumber } }
          : {}),
      });
    }
    return recognised;
  }
}
