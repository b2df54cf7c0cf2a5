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

/** The parts of Modrinth's API v2 answers used here (https://docs.modrinth.com/api/). */
interface Version {
  id: string;
  project_id: string;
  name?: string;
  version_number?: string;
  loaders?: string[];
  game_versions?: string[];
  files?: { url: string; filename: string; primary?: boolean; hashes?: { sha1?: string; sha512?: string } }[];
  dependencies?: { version_id?: string | null; project_id?: string | null; dependency_type?: string }[];
}

interface SearchAnswer {
  hits?: {
    project_id: string;
    title?: string;
    description?: string;
    author?: string;
    downloads?: number;
    icon_url?: string | null;
  }[];
}

const projectTypes = { mods: "mod", plugins: "plugin", datapacks: "datapack" } as const;

/** Modrinth (API v2): mods, plugins and data packs, looked up by sha512 too. */
export class Modrinth implements ModSource {
  readonly id = "modrinth" as const;

  constructor(private readonly baseUrl: () => Promise<string>) {}

  private async url(path: string, query: Record<string, string> = {}): Promise<string> {
    const search = new URLSearchParams(query).toString();
    return `${baseOf(await this.baseUrl())}/v2${path}${search ? `?${search}` : ""}`;
  }

  serves(): boolean {
    return true;
  }

  async search(query: string, target: ResolvedMods): Promise<ModSearchHit[]> {
    const facets = [[`categories:${target.loader}`], [`project_type:${projectTypes[target.kind]}`]];
    if (target.version) facets.push([`versions:${target.version}`]);
    const url = await this.url("/search", { query, limit: "20", facets: JSON.stringify(facets) });
    const answer = await askSource<SearchAnswer>(this.id, url);
    return (answer?.hits ?? []).map((hit) => ({
      projectId: hit.project_id,
      title: text(hit.title) || hit.project_id,
      description: text(hit.description),
      author: text(hit.author),
      downloads: count(hit.downloads),
      ...(hit.icon_url ? { iconUrl: hit.icon_url } : {}),
    }));
  }

  private filters(target: ResolvedMods): Record<string, string> {
    const filters: Record<string, string> = { loaders: JSON.stringify([target.loader]) };
    if (target.version) filters.game_versions = JSON.stringify([target.version]);
    return filters;
  }

  async versions(projectId: string, target: ResolvedMods): Promise<SourceVersion[]> {
    const url = await this.url(`/project/${encodeURIComponent(projectId)}/version`, this.filters(target));
    const answer = await askSource<Version[]>(this.id, url);
    return (answer ?? []).flatMap((version) => this.installable(version) ?? []);
  }

  async version(projectId: string, versionId: string, target: ResolvedMods): Promise<SourceVersion> {
    const answer = await askSource<Version>(
      this.id,
      await this.url(`/version/${encodeURIComponent(versionId)}`),
    );
    const installable = answer && this.installable(answer);
    const fits =
      answer?.loaders?.includes(target.loader) &&
      (!target.version || answer.game_versions?.includes(target.version));
    if (
      !installable ||
      !fits ||
      (answer.project_id !== projectId && !(await this.isSlugOf(projectId, answer)))
    )
      throw sourceErrors.versionNotFound(this.id, projectId, versionId);
    return installable;
  }

  /** A project named by its slug: the version's project must be the one the slug names. */
  private async isSlugOf(slug: string, version: Version): Promise<boolean> {
    const project = await askSource<{ id: string }>(
      this.id,
      await this.url(`/project/${encodeURIComponent(slug)}`),
    );
    return project?.id === version.project_id;
  }

  private installable(version: Version): SourceVersion | undefined {
    const file = version.files?.find((f) => f.primary) ?? version.files?.[0];
    const hashes = { sha1: file?.hashes?.sha1, sha512: file?.hashes?.sha512 };
    if (!file || (!hashes.sha1 && !hashes.sha512)) return undefined;
    return {
      projectId: version.project_id,
      versionId: version.id,
      versionNumber: text(version.version_number) || text(version.name) || version.id,
      file: file.filename,
      download: {
        url: file.url,
        file: file.filename,
        hashes: Object.fromEntries(Object.entries(hashes).filter(([, v]) => v)),
      },
      requires: (version.dependencies ?? [])
        .filter((d) => d.dependency_type === "required" && (d.project_id || d.version_id))
        .map((d) => ({
          projectId: d.project_id ?? "",
          ...(d.version_id ? { versionId: d.version_id } : {}),
        })),
    };
  }

  /**
   * Files Modrinth knows by their sha512 (hand-placed ones too), with the newest version for
   * this server's loader and game version where it differs.
   */
  async recognise(files: ModFileEntry[], target: ResolvedMods): Promise<Recognised> {
    const recognised: Recognised = new Map();
    if (files.length === 0) return recognised;
    const hashes = files.map((f) => f.sha512);
    const known = await askSource<Record<string, Version>>(this.id, await this.url("/version_files"), {
      method: "POST",
      body: { hashes, algorithm: "sha512" },
    });
    if (!known || Object.keys(known).length === 0) return recognised;
    const latest = await askSource<Record<string, Version>>(
      this.id,
      await this.url("/version_files/update"),
      {
        method: "POST",
        body: {
          hashes: Object.keys(known),
          algorithm: "sha512",
          loaders: [target.loader],
          ...(target.version ? { game_versions: [target.version] } : {}),
        },
      },
    );
    const projectIds = [...new Set(Object.values(known).map((v) => v.project_id))];
    const projects = await askSource<{ id: string; title?: string; icon_url?: string | null }[]>(
      this.id,
      await this.url("/projects", { ids: JSON.stringify(projectIds) }),
    );
    const projectOf = new Map((projects ?? []).map((p) => [p.id, p]));
    for (const file of files) {
      const version = known[file.sha512];
      if (!version) continue;
      const project = projectOf.get(version.project_id);
      const newer = latest?.[file.sha512];
      recognised.set(file.file, {
        source: this.id,
        projectId: version.project_id,
        versionId: version.id,
        versionNumber: text(version.version_number) || version.id,
        title: text(project?.title) || version.project_id,
        ...(project?.icon_url ? { iconUrl: project.icon_url } : {}),
        ...(newer && newer.id !== version.id
          ? { update: { versionId: newer.id, versionNumber: text(newer.version_number) || newer.id } }
          : {}),
      });
    }
    return recognised;
  }
}
