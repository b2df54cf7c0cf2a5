import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { curseFiles, curseforgeAnswer } from "./curseforge-standin.ts";

/**
 * A STAND-IN for the mod sources, on 127.0.0.1: there is no network here, so the tests point
 * the panel's settings (panel.mods.modrinthUrl, hangarUrl, curseforgeUrl) at this server, which
 * answers in the shapes Modrinth's API v2, Hangar's API v1 and CurseForge's API v1
 * (curseforge-standin.ts) answer (recorded from their documentation, trimmed to the fields the
 * panel reads) and serves small jar files of its own. Nothing here is their data.
 */

/** A jar's bytes: a zip's magic number and a line naming what it stands for. */
export function jarBytes(name: string): Buffer {
  return Buffer.from(`PK\u0003\u0004 stand-in jar for tests: ${name}\n`);
}

const sha = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest("hex");

interface StandinFile {
  name: string;
  bytes: Buffer;
}

interface ModrinthVersion {
  id: string;
  project_id: string;
  version_number: string;
  loaders: string[];
  game_versions: string[];
  file: StandinFile;
  /** A hash the answer gives that the file does not have (the mismatch case). */
  wrongHash?: boolean;
  dependencies: { project_id: string; version_id: string | null; dependency_type: string }[];
}

const file = (name: string): StandinFile => ({ name, bytes: jarBytes(name) });

/** Modrinth's projects and versions, newest version last. */
const projects = [
  { id: "P7dR8mSH", slug: "fabric-api", title: "Fabric API", author: "modmuss50", downloads: 98_000_000 },
  { id: "mOgUt4GM", slug: "modmenu", title: "Mod Menu", author: "Prospector", downloads: 57_000_000 },
  { id: "BrOkEn01", slug: "broken-lib", title: "Broken Lib", author: "nobody", downloads: 3 },
  { id: "UsesBr01", slug: "uses-broken", title: "Uses Broken", author: "nobody", downloads: 4 },
  { id: "FrgOnly1", slug: "forge-mod", title: "Forge Mod", author: "someone", downloads: 10 },
  { id: "OldMod01", slug: "old-mod", title: "Old Mod", author: "someone", downloads: 11 },
];
const modrinthVersions: ModrinthVersion[] = [
  {
    id: "Fapi0900",
    project_id: "P7dR8mSH",
    version_number: "0.90.0+1.20.1",
    loaders: ["fabric"],
    game_versions: ["1.20.1"],
    file: file("fabric-api-0.90.0+1.20.1.jar"),
    dependencies: [],
  },
  {
    id: "Fapi0920",
    project_id: "P7dR8mSH",
    version_number: "0.92.0+1.20.1",
    loaders: ["fabric"],
    game_versions: ["1.20.1"],
    file: file("fabric-api-0.92.0+1.20.1.jar"),
    dependencies: [],
  },
  {
    id: "MMenu722",
    project_id: "mOgUt4GM",
    version_number: "7.2.2",
    loaders: ["fabric"],
    game_versions: ["1.20.1"],
    file: file("modmenu-7.2.2.jar"),
    dependencies: [{ project_id: "P7dR8mSH", version_id: null, dependency_type: "required" }],
  },
  {
    id: "Broken10",
    project_id: "BrOkEn01",
    version_number: "1.0",
    loaders: ["fabric"],
    game_versions: ["1.20.1"],
    file: file("broken-lib-1.0.jar"),
    wrongHash: true,
    dependencies: [],
  },
  {
    id: "UsesBr10",
    project_id: "UsesBr01",
    version_number: "1.0",
    loaders: ["fabric"],
    game_versions: ["1.20.1"],
    file: file("uses-broken-1.0.jar"),
    dependencies: [{ project_id: "BrOkEn01", version_id: "Broken10", dependency_type: "required" }],
  },
  {
    id: "Forge100",
    project_id: "FrgOnly1",
    version_number: "1.0.0",
    loaders: ["forge"],
    game_versions: ["1.20.1"],
    file: file("forge-mod-1.0.0.jar"),
    dependencies: [],
  },
  {
    id: "OldMod10",
    project_id: "OldMod01",
    version_number: "1.0",
    loaders: ["fabric"],
    game_versions: ["1.19.2"],
    file: file("old-mod-1.0.jar"),
    dependencies: [],
  },
];

/** Hangar's projects: a plugin that needs a library. */
const hangarProjects = [
  {
    slug: "ChatPlus",
    owner: "paperdev",
    description: "Chat formatting",
    downloads: 1200,
    needs: ["CoreLib"],
  },
  { slug: "CoreLib", owner: "paperdev", description: "Shared code", downloads: 5400, needs: [] },
];
/** Hangar's versions of each project, newest first. */
const hangarVersions: Record<string, { name: string; file: StandinFile }[]> = {
  ChatPlus: [{ name: "2.1.0", file: file("ChatPlus-2.1.0.jar") }],
  CoreLib: [
    { name: "1.4.0", file: file("CoreLib-1.4.0.jar") },
    { name: "1.3.0", file: file("CoreLib-1.3.0.jar") },
  ],
};
const hangarFiles = Object.values(hangarVersions).flatMap((versions) => versions.map((v) => v.file));

export interface ModStandin {
  url: string;
  /** Every request, as `METHOD path?query`. */
  requests: string[];
  /** Downloads of files, by name. */
  downloads: string[];
  close(): Promise<void>;
}

export async function startModStandin(): Promise<ModStandin> {
  const requests: string[] = [];
  const downloads: string[] = [];
  let base = "";

  const modrinthVersion = (v: ModrinthVersion) => ({
    id: v.id,
    project_id: v.project_id,
    name: v.version_number,
    version_number: v.version_number,
    loaders: v.loaders,
    game_versions: v.game_versions,
    version_type: "release",
    files: [
      {
        url: `${base}/files/${encodeURIComponent(v.file.name)}`,
        filename: v.file.name,
        primary: true,
        size: v.file.bytes.length,
        hashes: {
          sha1: sha("sha1", v.wrongHash ? Buffer.from("other bytes") : v.file.bytes),
          sha512: sha("sha512", v.wrongHash ? Buffer.from("other bytes") : v.file.bytes),
        },
      },
    ],
    dependencies: v.dependencies,
  });
  const projectOf = (idOrSlug: string) => projects.find((p) => p.id === idOrSlug || p.slug === idOrSlug);
  const allFiles = [...modrinthVersions.map((v) => v.file), ...hangarFiles, ...curseFiles];

  const answer = (url: URL, method: string, body: unknown): unknown => {
    const path = url.pathname;
    const list = (name: string) => JSON.parse(url.searchParams.get(name) ?? "[]") as string[];
    const projectVersions = /^\/modrinth\/v2\/project\/([^/]+)\/version$/.exec(path);
    const project = /^\/modrinth\/v2\/project\/([^/]+)$/.exec(path);
    const version = /^\/modrinth\/v2\/version\/([^/]+)$/.exec(path);
    const hangarVersionsPath = /^\/hangar\/api\/v1\/projects\/([^/]+)\/versions(?:\/([^/]+))?$/.exec(path);
    if (path === "/modrinth/v2/search") {
      const facets = JSON.parse(url.searchParams.get("facets") ?? "[]") as string[][];
      const wanted = facets.flat();
      const q = (url.searchParams.get("query") ?? "").toLowerCase();
      const hits = projects.filter((p) => {
        const versions = modrinthVersions.filter((v) => v.project_id === p.id);
        return (
          p.title.toLowerCase().includes(q) &&
          versions.some((v) =>
            wanted.every(
              (f) =>
                f.startsWith("project_type:") ||
                (f.startsWith("categories:") && v.loaders.includes(f.slice(11))) ||
                (f.startsWith("versions:") && v.game_versions.includes(f.slice(9))),
            ),
          )
        );
      });
      return {
        hits: hits.map((p) => ({
          project_id: p.id,
          slug: p.slug,
          title: p.title,
          description: `${p.title}, served by the test's stand-in`,
          author: p.author,
          downloads: p.downloads,
          icon_url: null,
          project_type: "mod",
        })),
        offset: 0,
        limit: 20,
        total_hits: hits.length,
      };
    }
    if (projectVersions) {
      const found = projectOf(decodeURIComponent(projectVersions[1]));
      if (!found) return undefined;
      const loaders = list("loaders");
      const games = list("game_versions");
      return modrinthVersions
        .filter((v) => v.project_id === found.id)
        .filter(
          (v) =>
            loaders.every((l) => v.loaders.includes(l)) && games.every((g) => v.game_versions.includes(g)),
        )
        .reverse()
        .map(modrinthVersion);
    }
    if (project) {
      const found = projectOf(decodeURIComponent(project[1]));
      return found && { id: found.id, slug: found.slug, title: found.title };
    }
    if (version) {
      const found = modrinthVersions.find((v) => v.id === decodeURIComponent(version[1]));
      return found && modrinthVersion(found);
    }
    if (path === "/modrinth/v2/projects") {
      return list("ids").flatMap((id) => {
        const p = projectOf(id);
        return p ? [{ id: p.id, slug: p.slug, title: p.title, icon_url: null }] : [];
      });
    }
    if (method === "POST" && path === "/modrinth/v2/version_files") {
      const { hashes } = body as { hashes: string[] };
      const found: Record<string, unknown> = {};
      for (const hash of hashes) {
        const version = modrinthVersions.find((v) => !v.wrongHash && sha("sha512", v.file.bytes) === hash);
        if (version) found[hash] = modrinthVersion(version);
      }
      return found;
    }
    if (method === "POST" && path === "/modrinth/v2/version_files/update") {
      const {
        hashes,
        loaders = [],
        game_versions = [],
      } = body as {
        hashes: string[];
        loaders?: string[];
        game_versions?: string[];
      };
      const found: Record<string, unknown> = {};
      for (const hash of hashes) {
        const current = modrinthVersions.find((v) => sha("sha512", v.file.bytes) === hash);
        const newest = modrinthVersions
          .filter((v) => v.project_id === current?.project_id)
          .filter(
            (v) =>
              loaders.every((l) => v.loaders.includes(l)) &&
              game_versions.every((g) => v.game_versions.includes(g)),
          )
          .at(-1);
        if (newest) found[hash] = modrinthVersion(newest);
      }
      return found;
    }
    const hangarProject = (p: (typeof hangarProjects)[number]) => ({
      name: p.slug,
      namespace: { owner: p.owner, slug: p.slug },
      description: p.description,
      stats: { downloads: p.downloads },
      avatarUrl: `${base}/avatars/${p.slug}.png`,
    });
    if (path === "/hangar/api/v1/projects") {
      const q = (url.searchParams.get("q") ?? "").toLowerCase();
      return {
        pagination: { limit: 20, offset: 0, count: hangarProjects.length },
        result: hangarProjects.filter((p) => p.slug.toLowerCase().includes(q)).map(hangarProject),
      };
    }
    // Hangar answers a file's SHA-256 with the project of the first version that has it.
    const byHash = /^\/hangar\/api\/v1\/versions\/hash\/([0-9a-f]{64})$/.exec(path);
    if (byHash) {
      const plugin = hangarProjects.find((p) =>
        hangarVersions[p.slug].some((v) => sha("sha256", v.file.bytes) === byHash[1]),
      );
      return plugin && hangarProject(plugin);
    }
    if (hangarVersionsPath) {
      const [, slug, named] = hangarVersionsPath;
      const plugin = hangarProjects.find((p) => p.slug === decodeURIComponent(slug));
      if (!plugin) return undefined;
      const answered = hangarVersions[plugin.slug].map(({ name, file: jar }) => ({
        name,
        createdAt: "2024-05-01T10:00:00Z",
        downloads: {
          PAPER: {
            fileInfo: { name: jar.name, sizeBytes: jar.bytes.length, sha256Hash: sha("sha256", jar.bytes) },
            externalUrl: null,
            downloadUrl: `${base}/files/${encodeURIComponent(jar.name)}`,
          },
        },
        pluginDependencies: {
          PAPER: plugin.needs.map((need) => ({ name: need, required: true, externalUrl: null })),
        },
        platformDependencies: { PAPER: ["1.20.4", "1.20.6"] },
      }));
      if (!named) return { pagination: { limit: 20, offset: 0, count: answered.length }, result: answered };
      return answered.find((v) => v.name === decodeURIComponent(named));
    }
    return undefined;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://standin");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (url.pathname.startsWith("/files/")) {
        const name = decodeURIComponent(url.pathname.slice(7));
        const found = allFiles.find((f) => f.name === name);
        if (!found) return res.writeHead(404).end();
        downloads.push(name);
        return res.writeHead(200, { "content-length": found.bytes.length }).end(found.bytes);
      }
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      if (url.pathname.startsWith("/curseforge/")) {
        const cf = curseforgeAnswer(url, req.method ?? "GET", req.headers, body, base) ?? {
          status: 404,
          json: {},
        };
        return res.writeHead(cf.status, { "content-type": "application/json" }).end(JSON.stringify(cf.json));
      }
      const json = answer(url, req.method ?? "GET", body);
      if (json === undefined) return res.writeHead(404, { "content-type": "application/json" }).end("{}");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    downloads,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
