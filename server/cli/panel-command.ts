import { parseArgs } from "node:util";
import { composePanel } from "../compose.ts";
import { readConfig } from "../config.ts";
import { migrate, openDatabase } from "../db/database.ts";
import { sealStoredSecrets } from "../panel/seal-stored-secrets.ts";
import { serve } from "./serve.ts";
import { recordOpenedVersion, upgradeReport } from "./upgrade-check.ts";
import { userCommand } from "./users.ts";

/** The commands that open the panel's database: `serve`, `user ...`, `migrate`, `upgrade check` and `import`. */
export async function panelCommand(command: string, rest: string[]): Promise<void> {
  const config = readConfig();
  if (command === "serve") {
    const { values } = parseArgs({
      args: rest,
      options: { "no-local-node": { type: "boolean", default: false } },
    });
    if (values["no-local-node"]) config.localNode = false;
  }
  const opened = openDatabase(config);
  // What this version changes for this installation, told before anything is migrated.
  const report = await upgradeReport(opened.db, config);
  if (command === "upgrade") {
    try {
      if (rest[0] !== "check") throw new Error("usage: outpost upgrade check");
      console.log(
        report.lines.length > 0
          ? report.lines.join("\n")
          : `Outpost ${report.to}: nothing to tell for this installation${report.from ? ` (last opened by ${report.from})` : ""}`,
      );
    } finally {
      await opened.close();
    }
    return;
  }
  if (report.lines.length > 0) console.warn(report.lines.join("\n"));
  const applied = await migrate(opened);
  await recordOpenedVersion(opened.db);
  const composed = composePanel(config, opened.db);
  const { services } = composed;
  const sealed = await sealStoredSecrets(opened.db, services.secrets);
  if (sealed > 0) {
    await opened.scrub();
    console.log(`sealed ${sealed} secrets that were stored in plain text`);
  }
  if (command === "serve") return serve(config, opened, composed);
  try {
    if (command === "migrate")
      console.log(applied.length ? `applied ${applied.join(", ")}` : "database is up to date");
    else if (command === "import") {
      // The importer (its source readers, Laravel decryption, Wings SFTP) loads only for `outpost import`.
      const { importCommand } = await import("./import.ts");
      await importCommand(composed, rest, config.importSftpPassword);
    } else await userCommand(services, rest);
  } finally {
    await opened.close();
  }
}
