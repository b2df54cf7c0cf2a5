import { type Static, Type } from "typebox";
import { ModFileName } from "../node/mod-wire.ts";
import { ServerIdParams } from "./servers.ts";

/**
 * A server's mods and plugins (issue 37), under /api/servers/{id}/mods. The template's `mods`
 * says what the server runs; the panel asks the sources, the node downloads.
 */
export const ModSourceId = Type.Union([
  Type.Literal("modrinth"),
  Type.Literal("hangar"),
  Type.Literal("curseforge"),
]);
export type ModSourceId = Static<typeof ModSourceId>;

/** A project's id at its source (Modrinth's id or slug, Hangar's slug, CurseForge's number). */
const ProjectId = Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_.-]+$" });
/** A version's id at its source (Modrinth's id, Hangar's version name, CurseForge's file id). */
const VersionId = Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_.+-]+$" });

export const ModSourceView = Type.Object({
  id: ModSourceId,
  /** Whether the source is offered for this server (its loader, the panel's settings). */
  available: Type.Boolean(),
  /**
   * Why not: "off" (an administrator turned it off), "loader" (it has nothing for this loader)
   * or "key" (CurseForge needs an API key).
   */
  reason: Type.Optional(Type.Union([Type.Literal("off"), Type.Literal("loader"), Type.Literal("key")])),
});

const Target = Type.Object({
  game: Type.String(),
  loader: Type.String(),
  /** "" for every version (the template said latest). */
  version: Type.String(),
  folder: Type.String(),
  kind: Type.Union([Type.Literal("mods"), Type.Literal("plugins"), Type.Literal("datapacks")]),
});

export const InstalledMod = Type.Object({
  file: Type.String(),
  size: Type.Number(),
  /** Set when a source recognised the file by its hash. */
  source: Type.Optional(ModSourceId),
  projectId: Type.Optional(Type.String()),
  versionId: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  versionNumber: Type.Optional(Type.String()),
  iconUrl: Type.Optional(Type.String()),
  /** A newer version for this server's loader and game version. */
  update: Type.Optional(Type.Object({ versionId: Type.String(), versionNumber: Type.String() })),
});
export type InstalledMod = Static<typeof InstalledMod>;

export const ServerModsView = Type.Object({
  target: Target,
  sources: Type.Array(ModSourceView),
  installed: Type.Array(InstalledMod),
  /** Sources that could not be asked which files they know (the list still shows the files). */
  unreachable: Type.Array(ModSourceId),
});
export type ServerModsView = Static<typeof ServerModsView>;

export const ModSearchQuery = Type.Object({
  source: ModSourceId,
  q: Type.String({ maxLength: 100 }),
});

export const ModSearchHit = Type.Object({
  projectId: Type.String(),
  title: Type.String(),
  description: Type.String(),
  author: Type.String(),
  downloads: Type.Number(),
  iconUrl: Type.Optional(Type.String()),
});
export type ModSearchHit = Static<typeof ModSearchHit>;

export const ModSearchView = Type.Object({
  source: ModSourceId,
  /** What the search was narrowed to, from the template. */
  loader: Type.String(),
  version: Type.String(),
  hits: Type.Array(ModSearchHit),
});
export type ModSearchView = Static<typeof ModSearchView>;

export const ModVersionsQuery = Type.Object({ source: ModSourceId, projectId: ProjectId });

export const ModVersionView = Type.Object({
  versionId: Type.String(),
  versionNumber: Type.String(),
  file: Type.String(),
});
export type ModVersionView = Static<typeof ModVersionView>;
export const ModVersionList = Type.Array(ModVersionView);

export const ModInstallRequest = Type.Object({
  source: ModSourceId,
  projectId: ProjectId,
  versionId: VersionId,
});
export type ModInstallRequest = Static<typeof ModInstallRequest>;

export const ModInstallAnswer = Type.Object({
  /** Every file placed: the version's own, then its required dependencies'. */
  files: Type.Array(Type.String()),
});

export const ModFileParams = Type.Object({ id: ServerIdParams.properties.id, file: ModFileName });
