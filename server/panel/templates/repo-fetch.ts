import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as Tar from "tar";
import { archiveLimits, isRepoFile } from "./repo-files.ts";
import { extractZipRepo } from "./repo-zip.ts";

/**
 * Brings a remote template repository into a cache folder: a git clone of
 * the branch, or a .tar.gz / .zip archive over HTTP(S) in any layout (a
 * repository's own archive wraps it in one top folder; a mirror may not).
 * Only regular .json and README.md files are taken from archives, and never
 * outside the folder.
 */
export type ArchiveKind = "tar.gz" | "zip";

export function archiveKindOf(url: string): ArchiveKind | undefined {
  const pathname = url.split(/[?#]/)[0];
  if (/\.(tar\.gz|tgz)$/i.test(pathname)) return "tar.gz";
  if (/\.zip$/i.test(pathname)) return "zip";
  return undefined;
}

/** How long an unreachable host may keep us waiting for an answer, and a whole fetch. */
export const fetchTimeouts = { connectMs: 10_000, totalMs: 60_000 };

export async function fetchRepo(url: string, branch: string, into: string): Promise<void> {
  const staging = `${into}.new-${process.pid}`;
  await fs.promises.rm(staging, { recursive: true, force: true });
  try {
    const kind = archiveKindOf(url);
    if (kind) await fetchArchive(url, kind, staging);
    else await cloneGit(url, branch, staging);
    // Replace the old copy only once the new one is complete.
    await fs.promises.rm(into, { recursive: true, force: true });
    await fs.promises.rename(staging, into);
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

function cloneGit(url: string, branch: string, dir: string): Promise<void> {
  const args = [
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
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true" },
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

async function fetchArchive(url: string, kind: ArchiveKind, dir: string): Promise<void> {
  const whole = AbortSignal.timeout(fetchTimeouts.totalMs);
  const answered = new AbortController();
  const connect = setTimeout(
    () => answered.abort(new Error(`no answer within ${fetchTimeouts.connectMs / 1000} s`)),
    fetchTimeouts.connectMs,
  );
  const res = await fetch(url, { signal: AbortSignal.any([whole, answered.signal]) })
    .catch((err: Error) => {
      const cause = answered.signal.aborted ? answered.signal.reason : err.cause;
      throw new Error(`download failed: ${cause instanceof Error ? cause.message : err.message}`);
    })
    .finally(() => clearTimeout(connect));
  if (!res.ok || !res.body) throw new Error(`download failed: HTTP ${res.status}`);
  await fs.promises.mkdir(dir, { recursive: true });
  const body = Readable.fromWeb(res.body as never);
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
