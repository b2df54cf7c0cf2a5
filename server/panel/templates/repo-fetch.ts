import { execFile } from "node:child_process";
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";

/**
 * Brings a remote template repository into a cache folder: a git clone of
 * the branch, or a tar.gz archive over HTTP(S) (the URL ends in .tar.gz or
 * .tgz). Only regular .json and README.md files are taken from archives, and
 * never outside the folder.
 */
export function isArchiveUrl(url: string): boolean {
  return /\.(tar\.gz|tgz)(\?.*)?$/i.test(url);
}

export async function fetchRepo(
  url: string,
  branch: string,
  into: string,
  timeoutMs = 60_000,
): Promise<void> {
  const staging = `${into}.new-${process.pid}`;
  await fs.promises.rm(staging, { recursive: true, force: true });
  try {
    if (isArchiveUrl(url)) await fetchArchive(url, staging, timeoutMs);
    else await cloneGit(url, branch, staging, timeoutMs);
    // Replace the old copy only once the new one is complete.
    await fs.promises.rm(into, { recursive: true, force: true });
    await fs.promises.rename(staging, into);
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

function cloneGit(url: string, branch: string, dir: string, timeoutMs: number): Promise<void> {
  const args = [
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
      { timeout: timeoutMs, env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true" } },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        const reason = stderr.trim().split("\n").pop() || err.message;
        reject(new Error(`git clone failed: ${reason}`));
      },
    );
  });
}

async function fetchArchive(url: string, dir: string, timeoutMs: number): Promise<void> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).catch((err: Error) => {
    throw new Error(`download failed: ${err.cause instanceof Error ? err.cause.message : err.message}`);
  });
  if (!res.ok || !res.body) throw new Error(`download failed: HTTP ${res.status}`);
  await fs.promises.mkdir(dir, { recursive: true });
  await pipeline(
    Readable.fromWeb(res.body as never),
    tar.x({
      cwd: dir,
      strict: true,
      filter: (entryPath, entry) =>
        "type" in entry && entry.type === "File" && /(^|\/)[^/]+\/([^/]+\.json|README\.md)$/.test(entryPath),
    }),
  );
  await liftSingleTopFolder(dir);
}

/** Archives made from a repository (GitHub's, `git archive --prefix`) wrap it in one top folder. */
async function liftSingleTopFolder(dir: string): Promise<void> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  if (entries.length !== 1 || !entries[0].isDirectory()) return;
  const inner = await fs.promises.readdir(`${dir}/${entries[0].name}`, { withFileTypes: true });
  if (inner.some((e) => e.isFile() && e.name.endsWith(".json"))) return; // it is itself a template folder
  const lifted = `${dir}.lift`;
  await fs.promises.rename(`${dir}/${entries[0].name}`, lifted);
  await fs.promises.rm(dir, { recursive: true });
  await fs.promises.rename(lifted, dir);
}
