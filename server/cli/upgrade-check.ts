import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { PanelConfig } from "../config.ts";
import type { Database } from "../db/tables.ts";
import { ApiError, errorText } from "../errors.ts";
import { parseTemplate, renderRun, userValueNames, variableValues } from "../templates/index.ts";
import { productVersion } from "../version.ts";
import { compareVersions, upgradeNotes } from "./upgrade-notes.ts";

/** Where the panel keeps the version that last opened its database (the settings table, as JSON). */
const versionKey = "outpost.openedWithVersion";
/** A database from before the version was recorded was last opened by 0.3.0 or earlier. */
const unrecordedVersion = "0.3.0";

export interface UpgradeReport {
  /** The version that last opened this database; undefined for a new database. */
  from?: string;
  to: string;
  /** What to tell the operator, one line each; empty when nothing changes for them. */
  lines: string[];
}

/**
 * What opening this database with this version changes, read before anything is migrated:
 * the changelog's Upgrading notes since the version that last opened it, and what this
 * installation holds that those changes touch.
 */
export async function upgradeReport(db: Kysely<Database>, config: PanelConfig): Promise<UpgradeReport> {
  const from = await lastOpenedWith(db);
  const to = productVersion;
  if (from === undefined || compareVersions(from, to) >= 0) return { from, to, lines: [] };
  const lines = upgradeNotes(from, to).map((note) => `  ${note}`);
  const stuck = localServersThatWillNotStart(path.join(config.dataDir, "node", "servers"));
  if (stuck.length > 0) {
    const names = await serverNames(
      db,
      stuck.map((s) => s.id),
    );
    lines.push(
      `  ${stuck.length === 1 ? "1 server" : `${stuck.length} servers`} of the local node will not start until its definition is changed:`,
      ...stuck.map((s) => `    ${names.get(s.id) ?? s.id} (${s.id}): ${s.reason}`),
    );
  }
  if (lines.length > 0) {
    lines.unshift(`Upgrading Outpost from ${from} to ${to}:`);
    lines.push("  Remote nodes check their own servers when they run the new version.");
  }
  return { from, to, lines };
}

/** Records that this version opened the database (after its migrations ran). */
export async function recordOpenedVersion(db: Kysely<Database>): Promise<void> {
  const value = JSON.stringify(productVersion);
  const updated = await db
    .updateTable("settings")
    .set({ value })
    .where("key", "=", versionKey)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db.insertInto("settings").values({ key: versionKey, value }).execute();
}

/** undefined for a database no panel has opened yet (no tables), else the version recorded. */
async function lastOpenedWith(db: Kysely<Database>): Promise<string | undefined> {
  let row: { value: string } | undefined;
  try {
    row = await db.selectFrom("settings").select("value").where("key", "=", versionKey).executeTakeFirst();
  } catch {
    return undefined;
  }
  if (row) return String(JSON.parse(row.value));
  const anyUser = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  return anyUser ? unrecordedVersion : undefined;
}

async function serverNames(db: Kysely<Database>, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom("servers").select(["id", "name"]).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The local node's servers whose start command this version refuses to render with their
 * current values (a user's value inside a shell's script, say): they were fine before.
 */
function localServersThatWillNotStart(serversDir: string): { id: string; reason: string }[] {
  let files: string[];
  try {
    files = fs.readdirSync(serversDir).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  const stuck: { id: string; reason: string }[] = [];
  for (const file of files.sort()) {
    const id = file.slice(0, -5);
    let parsed: ReturnType<typeof parseTemplate>;
    try {
      parsed = parseTemplate(JSON.parse(fs.readFileSync(path.join(serversDir, file), "utf8")));
    } catch {
      continue;
    }
    if (!parsed.ok) {
      stuck.push({
        id,
        reason: `its definition no longer reads: ${parsed.problems.map((p) => `${p.path}: ${p.problem}`).join("; ")}`,
      });
      continue;
    }
    const template = parsed.template;
    try {
      renderRun(template.run, {
        serverId: id,
        rootDir: path.join(serversDir, id),
        os: "linux",
        arch: "amd64",
        env: template.environment.type,
        variables: variableValues(template.data),
        userValues: userValueNames(template.data),
      });
    } catch (error) {
      // Only a value refused is this version's doing; a condition that needs the host is not checked here.
      if (error instanceof ApiError && error.code === "ErrVariableInvalid")
        stuck.push({ id, reason: errorText(error) });
    }
  }
  return stuck;
}
