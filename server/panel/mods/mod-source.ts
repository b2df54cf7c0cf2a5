import type { InstalledMod, ModSearchHit, ModSourceId, ModVersionView } from "../../contract/api/mods.ts";
import type { ModDownload, ModFileEntry } from "../../contract/node/mod-wire.ts";
import { ApiError } from "../../errors.ts";
import type { ResolvedMods } from "../../templates/mods.ts";

/** One version of a project, as far as installing it goes. */
export interface SourceVersion extends ModVersionView {
  projectId: string;
  download: ModDownload;
  /** Required dependencies: a project, and the version it names when it names one. */
  requires: { projectId: string; versionId?: string }[];
}

/** What a source knows of files already in the folder, by file name. */
export type Recognised = Map<string, Omit<InstalledMod, "file" | "size">>;

/**
 * A place mods come from (Modrinth, Hangar, CurseForge). The panel asks it; the node
 * downloads what it names, checking the hash it gave.
 */
export interface ModSource {
  readonly id: ModSourceId;
  /** Whether it has anything for this loader. */
  serves(target: ResolvedMods): boolean;
  search(query: string, target: ResolvedMods): Promise<ModSearchHit[]>;
  /** Versions for this loader and game version, newest first. */
  versions(projectId: string, target: ResolvedMods): Promise<SourceVersion[]>;
  version(projectId: string, versionId: string, target: ResolvedMods): Promise<SourceVersion>;
  /** Files it recognises by hash, with a newer version where there is one. */
  recognise?(files: ModFileEntry[], target: ResolvedMods): Promise<Recognised>;
}

export const sourceErrors = {
  unavailable: (source: ModSourceId, cause?: unknown) =>
    new ApiError(502, "ErrModSourceUnavailable", "${source} could not be asked", { source }, { cause }),
  versionNotFound: (source: ModSourceId, projectId: string, versionId: string) =>
    new ApiError(
      404,
      "ErrModVersionNotFound",
      "${source} has no version ${versionId} of ${projectId} for this server",
      { source, projectId, versionId },
    ),
};

/** How long a source may take to answer one question. */
const sourceTimeoutMs = 15_000;
/** An answer is a page of JSON: a bigger one is no answer of a source's API. */
const maxAnswerBytes = 4 * 1024 * 1024;

/**
 * Asks a source's API. The base URL is an administrator's setting (a mirror, a test's
 * stand-in), so any address it names is asked; the files its answers name are the node's to
 * fetch, through the public-address guard. 404 answers undefined.
 */
export async function askSource<T>(
  source: ModSourceId,
  url: string,
  init: { method?: "GET" | "POST"; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T | undefined> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: {
        accept: "application/json",
        "user-agent": "outpost-panel",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "follow",
      signal: AbortSignal.timeout(sourceTimeoutMs),
    });
  } catch (error) {
    throw sourceErrors.unavailable(source, error);
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw sourceErrors.unavailable(source, new Error(`${url} answered ${response.status}`));
  }
  const text = await response.text();
  if (text.length > maxAnswerBytes)
    throw sourceErrors.unavailable(source, new Error(`${url} answered too much`));
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw sourceErrors.unavailable(source, error);
  }
}

/** A base URL without its trailing slashes, so paths can follow. */
export function baseOf(url: string): string {
  return url.replace(/\/+$/, "");
}

export const text = (value: unknown): string => (typeof value === "string" ? value : "");
export const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) ? value : 0;
