import { createHash } from "node:crypto";
import type http from "node:http";

/**
 * A STAND-IN for CurseForge's API v1 (https://docs.curseforge.com/rest-api/), served by the mod
 * sources' stand-in (mod-sources-standin.ts) under /curseforge: its search, files, file,
 * mods-by-id and fingerprints routes, in the shapes CurseForge answers (trimmed to the fields
 * the panel reads), refusing with 403 a request without the key, as CurseForge does. The
 * projects and jars are the test's own, not CurseForge's.
 */

/** The API key the stand-in takes (an administrator's `panel.mods.curseforgeKey` in the tests). */
export const curseforgeStandinKey = "stand-in-curseforge-key";

export interface CurseFile {
  id: number;
  modId: number;
  name: string;
  bytes: Buffer;
  /** CurseForge's ModLoaderType: 1 Forge, 4 Fabric. */
  loader: number;
  gameVersion: string;
  /** A sha1 the answer gives that the file does not have (the mismatch case). */
  wrongHash?: boolean;
  requires: number[];
}

/**
 * CurseForge's fingerprint, written here from its description (MurmurHash2, seed 1, over the
 * bytes other than tab, line feed, carriage return and space) in BigInt arithmetic, apart from
 * the node's streaming one, so the two check each other.
 */
export function curseforgeFingerprint(bytes: Buffer): number {
  const kept = [...bytes].filter((b) => b !== 9 && b !== 10 && b !== 13 && b !== 32);
  const mask = 0xffffffffn;
  const m = 0x5bd1e995n;
  const mul = (a: bigint, b: bigint) => (a * b) & mask;
  let h = (1n ^ BigInt(kept.length)) & mask;
  let i = 0;
  for (; i + 4 <= kept.length; i += 4) {
    let k = BigInt(kept[i] + kept[i + 1] * 2 ** 8 + kept[i + 2] * 2 ** 16 + kept[i + 3] * 2 ** 24);
    k = mul(k, m);
    k ^= k >> 24n;
    k = mul(k, m);
    h = mul(h, m) ^ k;
  }
  const rest = kept.length - i;
  if (rest >= 3) h ^= BigInt(kept[i + 2]) << 16n;
  if (rest >= 2) h ^= BigInt(kept[i + 1]) << 8n;
  if (rest >= 1) h = mul(h ^ BigInt(kept[i]), m);
  h ^= h >> 13n;
  h = mul(h, m);
  h ^= h >> 15n;
  return Number(h);
}

const jar = (name: string) => Buffer.from(`PK\u0003\u0004 stand-in CurseForge jar for tests: ${name}\n`);

const mods = [
  { id: 306612, name: "Fabric API", author: "modmuss50", downloads: 45_000_000 },
  { id: 238222, name: "Jade", author: "Snownee", downloads: 90_000_000 },
  { id: 777001, name: "Bad Lib", author: "nobody", downloads: 2 },
  { id: 777002, name: "Uses Bad Lib", author: "nobody", downloads: 3 },
  { id: 777003, name: "Forge Only", author: "someone", downloads: 9 },
];

/** Each mod's files, newest first (CurseForge answers by date, newest first). */
export const curseFiles: CurseFile[] = [
  {
    id: 5002,
    modId: 306612,
    name: "cf-fabric-api-0.92.2.jar",
    loader: 4,
    gameVersion: "1.20.1",
    requires: [],
  },
  {
    id: 5001,
    modId: 306612,
    name: "cf-fabric-api-0.91.0.jar",
    loader: 4,
    gameVersion: "1.20.1",
    requires: [],
  },
  {
    id: 5101,
    modId: 238222,
    name: "Jade-1.20.1-fabric-11.6.3.jar",
    loader: 4,
    gameVersion: "1.20.1",
    requires: [306612],
  },
  {
    id: 5201,
    modId: 777001,
    name: "bad-lib-1.0.jar",
    loader: 4,
    gameVersion: "1.20.1",
    wrongHash: true,
    requires: [],
  },
  {
    id: 5202,
    modId: 777002,
    name: "uses-bad-lib-1.0.jar",
    loader: 4,
    gameVersion: "1.20.1",
    requires: [777001],
  },
  { id: 5301, modId: 777003, name: "forge-only-1.0.jar", loader: 1, gameVersion: "1.20.1", requires: [] },
].map((f) => ({ ...f, bytes: jar(f.name) }));

const loaderNames: Record<number, string> = { 1: "Forge", 4: "Fabric" };
const sha = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest("hex");

/** An answer: its status and JSON. */
export type StandinAnswer = { status: number; json: unknown } | undefined;

/** Answers one request to /curseforge/…; undefined when the path is none of its routes. */
export function curseforgeAnswer(
  url: URL,
  method: string,
  headers: http.IncomingHttpHeaders,
  body: unknown,
  base: string,
): StandinAnswer {
  const path = url.pathname.replace(/^\/curseforge/, "");
  if (!path.startsWith("/v1/")) return undefined;
  if (headers["x-api-key"] !== curseforgeStandinKey) return { status: 403, json: {} };
  const ok = (json: unknown) => ({ status: 200, json });
  const fileView = (f: CurseFile) => ({
    id: f.id,
    gameId: 432,
    modId: f.modId,
    isAvailable: true,
    displayName: f.name.replace(/\.jar$/, ""),
    fileName: f.name,
    releaseType: 1,
    fileStatus: 4,
    hashes: [
      { value: sha("sha1", f.wrongHash ? Buffer.from("other bytes") : f.bytes), algo: 1 },
      { value: sha("md5", f.bytes), algo: 2 },
    ],
    fileDate: "2024-05-01T10:00:00Z",
    fileLength: f.bytes.length,
    downloadUrl: `${base}/files/${encodeURIComponent(f.name)}`,
    gameVersions: [f.gameVersion, loaderNames[f.loader]],
    dependencies: f.requires.map((modId) => ({ modId, relationType: 3 })),
    fileFingerprint: curseforgeFingerprint(f.bytes),
  });
  const modView = (mod: (typeof mods)[number]) => ({
    id: mod.id,
    gameId: 432,
    name: mod.name,
    slug: mod.name.toLowerCase().replace(/ /g, "-"),
    summary: `${mod.name}, served by the test's stand-in`,
    downloadCount: mod.downloads,
    classId: 6,
    authors: [{ id: 1, name: mod.author }],
    logo: null,
  });
  const fits = (f: CurseFile) =>
    (!url.searchParams.get("gameVersion") || f.gameVersion === url.searchParams.get("gameVersion")) &&
    (!url.searchParams.get("modLoaderType") || String(f.loader) === url.searchParams.get("modLoaderType"));

  if (method === "GET" && path === "/v1/mods/search") {
    if (url.searchParams.get("gameId") !== "432") return ok({ data: [] });
    const q = (url.searchParams.get("searchFilter") ?? "").toLowerCase();
    const found = mods.filter(
      (mod) => mod.name.toLowerCase().includes(q) && curseFiles.some((f) => f.modId === mod.id && fits(f)),
    );
    return ok({
      data: found.map(modView),
      pagination: { index: 0, pageSize: 20, resultCount: found.length },
    });
  }
  const files = /^\/v1\/mods\/(\d+)\/files$/.exec(path);
  if (method === "GET" && files) {
    const found = curseFiles.filter((f) => f.modId === Number(files[1]) && fits(f));
    if (!mods.some((mod) => mod.id === Number(files[1]))) return { status: 404, json: {} };
    return ok({
      data: found.map(fileView),
      pagination: { index: 0, pageSize: 20, resultCount: found.length },
    });
  }
  const one = /^\/v1\/mods\/(\d+)\/files\/(\d+)$/.exec(path);
  if (method === "GET" && one) {
    const found = curseFiles.find((f) => f.modId === Number(one[1]) && f.id === Number(one[2]));
    return found ? ok({ data: fileView(found) }) : { status: 404, json: {} };
  }
  if (method === "POST" && path === "/v1/mods") {
    const { modIds = [] } = body as { modIds?: number[] };
    return ok({ data: mods.filter((mod) => modIds.includes(mod.id)).map(modView) });
  }
  if (method === "POST" && (path === "/v1/fingerprints" || path === "/v1/fingerprints/432")) {
    const { fingerprints = [] } = body as { fingerprints?: number[] };
    const matched = curseFiles.filter((f) => fingerprints.includes(curseforgeFingerprint(f.bytes)));
    return ok({
      data: {
        isCacheBuilt: true,
        exactMatches: matched.map((f) => ({
          id: f.modId,
          file: fileView(f),
          latestFiles: curseFiles.filter((o) => o.modId === f.modId).map(fileView),
        })),
        exactFingerprints: matched.map((f) => curseforgeFingerprint(f.bytes)),
        partialMatches: [],
        partialMatchFingerprints: {},
        installedFingerprints: fingerprints,
        unmatchedFingerprints: fingerprints.filter(
          (n) => !matched.some((f) => curseforgeFingerprint(f.bytes) === n),
        ),
      },
    });
  }
  return { status: 404, json: {} };
}
