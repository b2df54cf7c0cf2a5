import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ApiError, errors } from "../../errors.ts";
import { checkedAddressOf } from "../../net/public-address.ts";

const invalidUrl = (why: string) =>
  new ApiError(400, "ErrFieldInvalid", `\${field} ${why}`, { field: "url" });

/** A folder on the panel's host given as `/path` or `file:///path`; undefined for anything else. */
export function localFolderOf(url: string): string | undefined {
  if (url.startsWith("/")) return path.resolve(url);
  if (!url.startsWith("file:")) return undefined;
  try {
    return path.resolve(fileURLToPath(url));
  } catch {
    return undefined;
  }
}

/**
 * The address to store for a repository being added: an http(s) URL as given, or a host folder
 * that exists as a file: URL. Reading a folder on the panel's host is for administrators only:
 * it reads the host's disk. Anyone else's is fetched from public addresses only (repo-fetch.ts):
 * one that is not is refused now, in the same words as one that does not resolve.
 */
export async function checkedRepoAddress(given: string, byAdmin: boolean): Promise<string> {
  const url = await checkedSource(given, byAdmin);
  if (
    !byAdmin &&
    !(await checkedAddressOf(new URL(url)).then(
      () => true,
      () => false,
    ))
  )
    throw invalidUrl("cannot be reached");
  return url;
}

/** The URL to store: an http(s) URL as given, or a host folder that exists as a file: URL. */
async function checkedSource(given: string, mayReadHostFolders: boolean): Promise<string> {
  const folder = localFolderOf(given);
  if (folder !== undefined) {
    if (!mayReadHostFolders) throw errors.missingScope("admin");
    const stat = await fs.stat(folder).catch(() => undefined);
    if (!stat?.isDirectory()) throw invalidUrl("is not a folder on the panel's host");
    return pathToFileURL(folder).toString();
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw invalidUrl("must be an http(s) URL or a folder on the panel's host");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw invalidUrl("must be an http(s) URL or a folder on the panel's host");
  return url.toString();
}
