import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { backupFileNamePattern } from "../../contract/node/backup-wire.ts";
import { s3Buckets } from "../backup-targets.ts";
import { Backups } from "../backups.ts";
import { errorText } from "./error-text.ts";
import type { PanelImport } from "./importer.ts";
import type { SourceBackup, SourceServer } from "./source-panel.ts";

type Bucket = Awaited<ReturnType<typeof s3Buckets>>[number];

/**
 * The old panel's backups. One Wings put in S3 (`<server uuid>/<backup uuid>.tar.gz` at the
 * bucket's root) becomes a backup of the server here that points at that same object, never
 * copied: its name, size and time kept, pinned when it was locked there, not yet verified (its
 * first verification checks Wings' SHA-1, then keeps our SHA-256). The bucket is the backup
 * target of the node `--backup-target` names, else the only S3 target configured here; the
 * server's own node must have that bucket as its target, since a node reads its backups itself.
 * A backup on a Wings node's disk comes from `--backups DIR` onto the node's disk here (fromDisk).
 */
export async function importBackups(run: PanelImport): Promise<void> {
  const buckets = await s3Buckets(run.services.db);
  const chosen = chooseBucket(buckets, run.options.backupTarget);
  const backups = new Backups(run.services.db, run.services.servers);
  for (const backup of run.source.backups) {
    const server = run.source.servers.find((s) => s.id === backup.serverId);
    const ours = run.servers.get(backup.serverId);
    const label = `backup "${backup.name}" of ${ours ?? backup.serverId} (${backup.disk}, ${backup.bytes} bytes)`;
    const skip = (why: string) => run.line("skipped", `${label}: ${why}`);
    const before = run.earlier("backup", backup.uuid);
    if (before) {
      run.line("kept", `${label}: imported before (backup ${before})`);
      continue;
    }
    if (!server || !ours) {
      skip("its server was not brought over");
      continue;
    }
    if (backup.disk !== "s3") {
      await fromDisk(run, backups, backup, ours, label, skip);
      continue;
    }
    if ("why" in chosen) {
      skip(chosen.why);
      continue;
    }
    const key = `${server.uuid}/${backup.uuid}.tar.gz`;
    const where = `s3://${chosen.bucket}/${key}`;
    const nodeId = await nodeOf(run, server, ours);
    const readable = buckets.find((b) => b.nodeId === nodeId);
    if (nodeId === undefined || nodeId < 0) {
      skip(
        "its server goes onto a new node: once its daemon runs, give that node the old panel's bucket as its backup target and run the import again",
      );
      continue;
    }
    if (readable?.endpoint !== chosen.endpoint || readable.bucket !== chosen.bucket) {
      skip(
        `node ${nodeId}, where its server is, keeps its backups ${readable ? `in the bucket ${readable.bucket} at ${readable.endpoint}` : "on its own disk"}, ` +
          `not in ${chosen.bucket} at ${chosen.endpoint}: give that node the old panel's bucket as its backup target and run the import again`,
      );
      continue;
    }
    const what = `${label} from ${where}, where it is${backup.locked ? ", pinned (locked there)" : ""}; not yet verified here`;
    if (!run.options.apply) {
      await dryRun(run, nodeId, key, where, what, skip);
      continue;
    }
    try {
      const made = await backups.bring(ours, fileNameOf(backup), backup.name, {
        adopt: { key, ...receiptOf(backup) },
      });
      await run.record("backup", backup.uuid, made.id);
      run.line("created", what);
    } catch (err) {
      const missing = (err as { code?: string }).code === "ErrBackupNotFound";
      skip(missing ? `no object ${where} (was it removed there?)` : `${where}: ${errorText(err)}`);
    }
  }
}

/**
 * A backup on a Wings node's disk: with `--backups DIR` (Wings' backups folder, copied to or
 * mounted on this host: `<backup uuid>.tar.gz` files), its file is streamed onto the disk of the
 * server's node here, checked against Wings' SHA-1; without, reported with what to do.
 */
async function fromDisk(
  run: PanelImport,
  backups: Backups,
  backup: SourceBackup,
  ours: string,
  label: string,
  skip: (why: string) => void,
): Promise<void> {
  const folder = run.options.backups;
  if (!folder) {
    skip(
      `on its Wings node's disk (backups/${backup.uuid}.tar.gz in Wings' data folder there), not brought over; ` +
        "give that folder, on this host, as --backups DIR to copy it here, or download it from the old panel",
    );
    return;
  }
  const file = path.join(folder, `${backup.uuid}.tar.gz`);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
    skip(`no file ${file} (is that Wings' backups folder of its node?)`);
    return;
  }
  const what = `${label} from ${file}, copied onto its node's disk${backup.locked ? ", pinned (locked there)" : ""}`;
  if (!run.options.apply) {
    run.line("created", what);
    return;
  }
  try {
    const made = await backups.bring(ours, fileNameOf(backup), backup.name, {
      receive: fs.createReadStream(file, { highWaterMark: 256 * 1024 }),
      receipt: receiptOf(backup),
    });
    await run.record("backup", backup.uuid, made.id);
    run.line("created", `${what}${backup.sha1 ? "; checked against Wings' SHA-1" : ""}`);
  } catch (err) {
    skip(`${file}: ${errorText(err)}`);
  }
}

function receiptOf(backup: SourceBackup) {
  return {
    pinned: backup.locked,
    createdAt: backup.createdAt || Date.now(),
    ...(backup.sha1 ? { sha1: backup.sha1 } : {}),
  };
}

/** A dry run asks the node for the object (a HEAD through its S3 client), so the report says what is there. */
async function dryRun(
  run: PanelImport,
  nodeId: number,
  key: string,
  where: string,
  what: string,
  skip: (why: string) => void,
): Promise<void> {
  try {
    const size = await (await run.services.nodes.client(nodeId)).backups.objectSize(key);
    if (size === null) skip(`no object ${where} (was it removed there?)`);
    else run.line("created", `${what} (${size} bytes there)`);
  } catch (err) {
    skip(`${where}: ${errorText(err)}`);
  }
}

function chooseBucket(buckets: Bucket[], asked: number | undefined): Bucket | { why: string } {
  if (asked !== undefined)
    return (
      buckets.find((b) => b.nodeId === asked) ?? {
        why: `node ${asked} (--backup-target) has no S3 backup target`,
      }
    );
  const [only, ...others] = buckets;
  if (only && others.length === 0) return only;
  if (!only)
    return {
      why: "no S3 backup target is configured here: give the node its server is on the bucket Wings wrote to as its backup target, then run the import again",
    };
  return {
    why: `nodes ${buckets.map((b) => b.nodeId).join(", ")} have S3 backup targets: name the one with the old panel's bucket with --backup-target NODE`,
  };
}

/** Where the server is here (made by an earlier run or this one), or where a dry run would put it. */
async function nodeOf(run: PanelImport, server: SourceServer, ours: string): Promise<number | undefined> {
  const row = await run.services.db
    .selectFrom("servers")
    .select("node_id")
    .where("id", "=", ours)
    .executeTakeFirst();
  return row ? row.node_id : run.nodes.get(server.nodeId);
}

/** The backup's own uuid as our file name where it has our shape (so a run cut short finds it again). */
function fileNameOf(backup: SourceBackup): string {
  const name = `${backup.uuid.toLowerCase()}.tar.gz`;
  return backupFileNamePattern.test(name) ? name : `${randomUUID()}.tar.gz`;
}
