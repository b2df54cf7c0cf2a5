import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as Tar from "tar";
import { checkedAddressOf, checkedGet } from "../../net/public-address.ts";
import { archiveLimits, isRepoFile } from "./repo-files.ts";
import { extractZipRepo } from "./repo-zip.ts";

/**
 * Brings a remote template repository into a cache folder: a git clone of
 * the branch, or a .tar.gz / .zip archive over HTTP(S) in any layout (a
 * repository's own archive wraps it in one top folder; a mirror may not).
 * Only regular .json and README.md files are taken from archives, and never
 * outside the folder.
 */
export type RepoArchiveKind = "tar.gz" | "zip";

export function archiveKindOf(url: string): RepoArchiveKind | undefined {
  const pathname = url.split(/[?#]/)[0];
  if (/\.(tar\.gz|tgz)$/i.test(pathname)) return "tar.gz";
  if (/\.zip$/i.test(pathname)) return "zip";
  return undefined;
}

/** How long an unreachable host may keep us waiting for an answer, and a whole fetch. */
export const fetchTimeouts = { connectMs: 10_000, totalMs: 60_000 };

/**
 * `publicOnly`: the repository was added by a non-administrator, so it is fetched from public
 * addresses only (server/net/public-address.ts), redirects included.
 */
export async function fetchRepo(
  url: string,
  branch: string,
  into: string,
  opts: { publicOnly: boolean },
): Promise<void> {
  const staging = `${into}.new-${process.pid}`;
  await fs.promises.rm(staging, { recursive: true, force: true });
  try {
    const kind = archiveKindOf(url);
    if (kind) await fetchArchive(url, kind, staging, opts.publicOnly);
    else await cloneGit(url, branch, staging, opts.publicOnly);
    // Replace the old copy only once the new one is complete.
    await fs.promises.rm(into, { recursive: true, force: true });
    await fs.promises.rename(staging, into);
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

/**
 * git connects by itself: for a public-only clone the host is resolved and checked here, and git
 * is pinned to that address (curl's resolve list), follows no redirect, speaks only http(s) and
 * uses no proxy.
 */
async function publicOnlyGitConfig(url: string): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
  const parsed = new URL(url);
  const address = await checkedAddressOf(parsed);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  const pinned = net.isIPv6(address) ? `[${address}]` : address;
  const args = [
    ...(net.isIP(host) ? [] : ["-c", `http.curloptResolve=${host}:${port}:${pinned}`]),
    ...["-c", "http.followRedirects=false", "-c", "http.proxy=", "-c", "protocol.allow=never"],
    ...["-c", "protocol.http.allow=always", "-c", "protocol.https.allow=always"],
  ];
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(https?|all|no)_proxy$/i.test(name)) delete env[name];
  return { args, env };
}

async function cloneGit(url: string, branch: string, dir: string, publicOnly: boolean): Promise<void> {
  const guard = publicOnly ? await publicOnlyGitConfig(url) : { args: [], env: process.env };
  const args = [
    ...guard.args,
    // A host that answers but sends next to nothing is given up on, like one that never answers.
    "-c",
    "http.lowSpeedLimit=1000",
    "-c",
    `http.lowSpeedTime=${Math.ceil(fetchTimeouts.connectMs / 1000)}`,
    "clone",
    "--quiet",
    "--single-branch",
    ...(branch ? ["--branch", branch] : []),
    "--",
    url,
    dir,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        timeout: fetchTimeouts.totalMs,
        env: { ...guard.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true" },
      },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        const reason = err.killed
          ? `no answer within ${fetchTimeouts.totalMs / 1000} s`
          : stderr.trim().split("\n").pop() || err.message;
        reject(new Error(`git clone failed: ${reason}`));
      },
    );
  });
}

async function fetchArchive(
  url: string,
  kind: RepoArchiveKind,
  dir: string,
  publicOnly: boolean,
): Promise<void> {
  const whole = AbortSignal.timeout(fetchTimeouts.totalMs);
  const answered = new AbortController();
  const connect = setTimeout(
    () => answered.abort(new Error(`no answer within ${fetchTimeouts.connectMs / 1000} s`)),
    fetchTimeouts.connectMs,
  );
  const signal = AbortSignal.any([whole, answered.signal]);
  const failed = (err: Error) => {
    const cause = answered.signal.aborted ? answered.signal.reason : err.cause;
    return new Error(`download failed: ${cause instanceof Error ? cause.message : err.message}`);
  };
  let body: Readable;
  if (publicOnly) {
    body = await checkedGet(url, { signal })
      .catch((err: Error) => {
        throw failed(err);
      })
      .finally(() => clearTimeout(connect));
  } else {
    const res = await fetch(url, { signal })
      .catch((err: Error) => {
        throw failed(err);
      })
      .finally(() => clearTimeout(connect));
    if (!res.ok || !res.body) throw new Error(`download failed: HTTP ${res.status}`);
    body = Readable.fromWeb(res.body as never);
  }
  await fs.promises.mkdir(dir, { recursive: true });
  if (kind === "zip") await extractZipRepo(body, dir, archiveLimits);
  else await extractTarRepo(body, dir);
  await liftSingleTopFolder(dir);
}

async function extractTarRepo(body: Readable, dir: string): Promise<void> {
  // Loaded on first use: most panels never fetch a template repository as an archive.
  const tar: typeof Tar = await import("tar");
  let total = 0;
  await pipeline(
    body,
    tar.x({
      cwd: dir,
      strict: true,
      filter: (entryPath, entry) => {
        if (!("type" in entry) || entry.type !== "File" || !isRepoFile(entryPath)) return false;
        total += entry.size ?? 0;
        if ((entry.size ?? 0) > archiveLimits.fileBytes || total > archiveLimits.totalBytes)
          throw new Error(`archive is larger than a template repository can be (${entryPath})`);
        return true;
      },
    }),
  );
}

/**
 * An archive made from a repository (GitHub's, `git archive --prefix`) wraps
 * it in one top folder: the repository is that folder when it holds template
 * folders. (The upstream layout also has `spec.json` beside them; a folder
 * with no sub-folder is a single template folder and stays as it is.)
 */
export async function liftSingleTopFolder(dir: string): Promise<void> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  if (entries.length !== 1 || !entries[0].isDirectory()) return;
  const top = path.join(dir, entries[0].name);
  const inner = await fs.promises.readdir(top, { withFileTypes: true });
  if (!inner.some((e) => e.isDirectory())) return;
  const lifted = `${dir}.lift`;
  await fs.promises.rename(top, lifted);
  await fs.promises.rm(dir, { recursive: true });
  await fs.promises.rename(lifted, dir);
}
