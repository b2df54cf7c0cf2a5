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

/** The parts of Hangar's API v1 answers used here (https://hangar.papermc.io/api-docs). */
interface Download {
  fileInfo?: { name?: string; sizeBytes?: number; sha256Hash?: string } | null;
  externalUrl?: string | null;
  downloadUrl?: string | null;
}

interface Version {
  name: string;
  downloads?: Record<string, Download>;
  pluginDependencies?: Record<string, { name: string; required?: boolean; externalUrl?: string | null }[]>;
  platformDependencies?: Record<string, string[]>;
}

interface Project {
  name: string;
  namespace?: { owner?: string; slug?: string };
  description?: string;
  stats?: { downloads?: number };
  avatarUrl?: string;
}

/** Hangar's platforms, by the loaders that run their plugins. */
const platforms: Record<string, string> = {
  paper: "PAPER",
  purpur: "PAPER",
  folia: "PAPER",
  spigot: "PAPER",
  bukkit: "PAPER",
  velocity: "VELOCITY",
  waterfall: "WATERFALL",
  bungeecord: "WATERFALL",
};

/** Hangar (PaperMC): plugins for Paper, Velocity and Waterfall; files carry a sha256. */
export class Hangar implements ModSource {
  readonly id = "hangar" as const;

  constructor(private readonly baseUrl: () => Promise<string>) {}

  private async url(path: string, query: Record<string, string> = {}): Promise<string> {
    const search = new URLSearchParams(query).toString();
    return `${baseOf(await this.baseUrl())}/api/v1${path}${search ? `?${search}` : ""}`;
  }

  serves(target: ResolvedMods): boolean {
    return platforms[target.loader] !== undefined;
  }

  private platform(target: ResolvedMods): string {
    return platforms[target.loader] ?? "PAPER";
  }

  async search(query: string, target: ResolvedMods): Promise<ModSearchHit[]> {
    const filters: Record<string, string> = { q: query, limit: "20", platform: this.platform(target) };
    if (target.version) filters.version = target.version;
    const answer = await askSource<{ result?: Project[] }>(this.id, await this.url("/projects", filters));
    return (answer?.result ?? []).map((project) => ({
      projectId: project.namespace?.slug || project.name,
      title: project.name,
      description: text(project.description),
      author: text(project.namespace?.owner),
      downloads: count(project.stats?.downloads),
      ...(project.avatarUrl ? { iconUrl: project.avatarUrl } : {}),
    }));
  }

  async versions(projectId: string, target: ResolvedMods): Promise<SourceVersion[]> {
    const filters: Record<string, string> = { limit: "20", platform: this.platform(target) };
    if (target.version) filters.platformVersion = target.version;
    const path = `/projects/${encodeURIComponent(projectId)}/versions`;
    const answer = await askSource<{ result?: Version[] }>(this.id, await this.url(path, filters));
    return (answer?.result ?? []).flatMap((version) => this.installable(projectId, version, target) ?? []);
  }

  async version(projectId: string, versionId: string, target: ResolvedMods): Promise<SourceVersion> {
    const path = `/projects/${encodeURIComponent(projectId)}/versions/${encodeURIComponent(versionId)}`;
    const answer = await askSource<Version>(this.id, await this.url(path));
    const installable = answer && this.installable(projectId, answer, target);
    if (!installable) throw sourceErrors.versionNotFound(this.id, projectId, versionId);
    return installable;
  }

  /** A version with a file on Hangar for this platform (an external link has no hash to check). */
  private installable(projectId: string, version: Version, target: ResolvedMods): SourceVersion | undefined {
    const platform = this.platform(target);
    const download = version.downloads?.[platform];
    const sha256 = download?.fileInfo?.sha256Hash?.toLowerCase();
    const name = download?.fileInfo?.name;
    if (!download?.downloadUrl || !sha256 || !name) return undefined;
    const gameVersions = version.platformDependencies?.[platform];
    if (target.version && gameVersions && !gameVersions.includes(target.version)) return undefined;
    return {
      projectId,
      versionId: version.name,
      versionNumber: version.name,
      file: name,
      download: { url: download.downloadUrl, file: name, hashes: { sha256 } },
      requires: (version.pluginDependencies?.[platform] ?? [])
        .filter((d) => d.required && !d.externalUrl)
        .map((d) => ({ projectId: d.name })),
    };
  }

  /**
   * Files Hangar knows by their SHA-256 (hand-placed ones too): Hangar answers a hash with its
   * project; the project's versions for this platform say which version it is and whether a
   * newer one is there.
   */
  async recognise(files: ModFileEntry[], target: ResolvedMods): Promise<Recognised> {
    const recognised: Recognised = new Map();
    const versionsOf = new Map<string, SourceVersion[]>();
    for (const file of files) {
      const path = `/versions/hash/${file.sha256}`;
      const project = await askSource<Project>(this.id, await this.url(path));
      if (!project?.name) continue;
      const projectId = project.namespace?.slug || project.name;
      if (!versionsOf.has(projectId)) versionsOf.set(projectId, await this.versions(projectId, target));
      const versions = versionsOf.get(projectId) ?? [];
      const current = versions.find((v) => v.download.hashes.sha256 === file.sha256);
      const newest = versions[0];
      recognised.set(file.file, {
        source: this.id,
        projectId,
        title: project.name,
        ...(project.avatarUrl ? { iconUrl: project.avatarUrl } : {}),
        ...(current ? { versionId: current.versionId, versionNumber: current.versionNumber } : {}),
        ...(current && newest && newest.versionId !== current.versionId
          ? { update: { versionId: newest.versionId, versionNumber: newest.versionNumber } }
          : {}),
      });
    }
    return recognised;
  }
}
