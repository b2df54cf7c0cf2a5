import type { ModSearchHit } from "../../contract/api/mods.ts";
import type { ResolvedMods } from "../../templates/mods.ts";
import {
  askSource,
  baseOf,
  count,
  type ModSource,
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

  private async ask<T>(path: string, query: Record<string, string> = {}): Promise<T | undefined> {
    const search = new URLSearchParams(query).toString();
    const url = `${baseOf(await this.baseUrl())}/v1${path}${search ? `?${search}` : ""}`;
    return askSource<T>(this.id, url, { headers: { "x-api-key": await this.key() } });
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
}
