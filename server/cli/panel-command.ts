import { parseArgs } from "node:util";
import { composePanel } from "../compose.ts";
import { readConfig } from "../config.ts";
import { migrate, openDatabase } from "../db/database.ts";
import { sealStoredSecrets } from "../panel/seal-stored-secrets.ts";
import { serve } from "./serve.ts";
import { userCommand } from "./users.ts";

/** The commands that open the panel's database: `serve`, `user ...` and `migrate`. */
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
  const applied = await migrate(opened);
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
    else await userCommand(services, rest);
  } finally {
    await opened.close();
  }
}
