import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { PanelClient } from "./http-client.ts";
import { waitUntil } from "./poll.ts";

/** A backup as the panel lists it. */
export interface Backup {
  id: number;
  name: string;
  fileName: string;
  createdAt: string;
  size: number;
  state: "creating" | "ready" | "failed";
  bytesWritten?: number;
  error?: string;
  whileRunning?: boolean;
  sha256?: string;
  leftOut?: number;
  pinned?: boolean;
  lastVerification?: { at: string; ok: boolean; reason?: string };
}

/** A folder as a sorted list of entries: files by content hash, links by target, folders by name. */
export function treeOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const place = rel ? `${rel}/${name}` : name;
      const stats = fs.lstatSync(full);
      if (stats.isSymbolicLink()) out.push(`${place} -> ${fs.readlinkSync(full)}`);
      else if (stats.isDirectory()) {
        out.push(`${place}/`);
        walk(full, place);
      } else out.push(`${place} ${createHash("sha256").update(fs.readFileSync(full)).digest("hex")}`);
    }
  };
  walk(root, "");
  return out;
}

/** The server's backup of this name, as listed now (fails when there is none). */
export async function backupNamed(api: PanelClient, serverId: string, name: string): Promise<Backup> {
  const list = await api.get<Backup[]>(`/api/servers/${serverId}/backup`);
  expect(list.status, list.text).toBe(200);
  const found = list.body.find((b) => b.name === name);
  if (!found) throw new Error(`no backup named ${name}`);
  return found;
}

/** The backup once it is no longer being made (ready or failed). */
export async function settledBackup(
  api: PanelClient,
  serverId: string,
  backupId: number,
  timeoutMs = 60_000,
): Promise<Backup> {
  let last: Backup | undefined;
  await waitUntil(
    async () => {
      last = (await api.get<Backup>(`/api/servers/${serverId}/backup/${backupId}`)).body;
      return last.state !== "creating";
    },
    timeoutMs,
    100,
  );
  return last as Backup;
}

/** GETs a file with the client's session (a download the JSON client would not keep as bytes). */
export async function downloadBytes(
  api: PanelClient,
  url: string,
): Promise<{ res: Response; bytes: Buffer }> {
  const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(api.baseUrl + url, { headers: { cookie } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}
