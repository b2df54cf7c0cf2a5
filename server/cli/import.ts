import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ComposedPanel } from "../compose.ts";
import { type ImportOptions, PanelImport } from "../panel/import/importer.ts";
import { openSource } from "../panel/import/source-db.ts";
import { readSource } from "../panel/import/source-panel.ts";
import { repoRoot } from "../repo-root.ts";

export const importUsage =
  "usage: outpost import pterodactyl|pelican --database URL [--apply] [--node ID] [--volumes DIR] [--sftp ADMIN] [--app-key KEY] [--environment host] [--backup-target NODE] [--backups DIR]";

/**
 * `outpost import pterodactyl|pelican`: reads the other panel's database (read-only) and makes
 * its users, nodes, templates, servers, subusers, tasks and databases here, and the servers'
 * files from the Wings volumes on this host (`--volumes`) or over each Wings node's SFTP (`--sftp`
 * with an old administrator's user name; the password from the environment), and records of its
 * S3 backups pointing at the same objects, in the bucket that is the backup target of the node
 * `--backup-target` names (else the only S3 target here), and those on a Wings node's disk from
 * its backups folder on this host (`--backups`). A dry run unless
 * `--apply`. The panel's own node (`--node 0`) is this process's engine for the run: stop
 * `outpost serve` meanwhile, as for `outpost migrate`.
 */
export async function importCommand(
  { services, localEngine }: ComposedPanel,
  args: string[],
  sftpPassword: string | undefined,
): Promise<void> {
  const [panel, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      database: { type: "string" },
      apply: { type: "boolean", default: false },
      node: { type: "string" },
      volumes: { type: "string" },
      sftp: { type: "string" },
      "app-key": { type: "string" },
      environment: { type: "string" },
      "backup-target": { type: "string" },
      backups: { type: "string" },
    },
  });
  if ((panel !== "pterodactyl" && panel !== "pelican") || !values.database) throw new Error(importUsage);
  if (values.sftp !== undefined && !values.sftp.trim())
    throw new Error("--sftp takes the user name of an administrator of the old panel");
  if (values.sftp && !sftpPassword)
    throw new Error(
      "--sftp needs that administrator's password in OUTPOST_IMPORT_SFTP_PASSWORD (never on the command line)",
    );
  if (values.environment !== undefined && values.environment !== "host")
    throw new Error("--environment takes only host (servers run in Docker otherwise)");
  if (values.node !== undefined && !/^\d+$/.test(values.node)) throw new Error("--node takes a node's id");
  const backupTarget = values["backup-target"];
  if (backupTarget !== undefined && !/^\d+$/.test(backupTarget))
    throw new Error(
      "--backup-target takes the id of the node whose S3 backup target holds the old panel's backups",
    );
  for (const [flag, folder] of [
    ["--volumes", values.volumes],
    ["--backups", values.backups],
  ] as const)
    if (folder && !fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`${flag} ${folder} is not a folder`);
  const options: ImportOptions = {
    apply: values.apply,
    ...(values.node !== undefined ? { nodeId: Number(values.node) } : {}),
    ...(values.volumes ? { volumes: path.resolve(values.volumes) } : {}),
    ...(values.sftp && sftpPassword
      ? { sftp: { username: values.sftp.trim(), password: sftpPassword } }
      : {}),
    ...(values["app-key"] ? { appKey: values["app-key"] } : {}),
    ...(values.environment === "host" ? { environment: "host" as const } : {}),
    ...(backupTarget !== undefined ? { backupTarget: Number(backupTarget) } : {}),
    ...(values.backups ? { backups: path.resolve(values.backups) } : {}),
    locales: fs.readdirSync(path.join(repoRoot, "locales")),
  };
  const source = await openSource(values.database);
  try {
    const read = await readSource(source);
    console.log(
      `${values.apply ? "Importing" : "Dry run (nothing is written; --apply does it)"}: ${panel} at ${source.label}`,
    );
    if (options.apply && options.nodeId === 0) await localEngine?.start();
    const run = new PanelImport(services, `${panel} ${source.label}`, read, options, (line) =>
      console.log(line),
    );
    const counts = await run.run().catch((err: unknown) => {
      // Each thing made is recorded as it is made: what came over stays, and a second run goes on.
      throw new Error(
        `import stopped: ${err instanceof Error ? err.message : String(err)}\n` +
          `${run.counts.created} things were made before and are kept; run the same command again to go on`,
        { cause: err },
      );
    });
    console.log(
      `${values.apply ? "done" : "would do"}: ${counts.created} created, ${counts.mapped} mapped, ` +
        `${counts.kept} kept from an earlier run, ${counts.skipped} skipped`,
    );
  } finally {
    await source.close();
    services.nodes.stop();
    await localEngine?.close();
  }
}
