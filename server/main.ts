import { parseArgs } from "node:util";
import { daemon } from "./cli/daemon.ts";
import { serve } from "./cli/serve.ts";
import { userCommand } from "./cli/users.ts";
import { composePanel } from "./compose.ts";
import { readConfig } from "./config.ts";
import { migrate, openDatabase } from "./db/database.ts";
import { sealStoredSecrets } from "./panel/seal-stored-secrets.ts";

const usage = `usage: outpost <command>
  serve [--no-local-node]                 start the panel (and its local node)
  daemon --config FILE                    run a node on its own (the file comes from the node's deployment page)
  user add --email E --username U [--password P] [--admin]
  user passwd --email E [--password P]
  migrate                                 apply database migrations and exit

Configuration comes from the environment: OUTPOST_PORT (8080), OUTPOST_HOST (0.0.0.0),
OUTPOST_DATA_DIR (./data), OUTPOST_PUBLIC_URL, DATABASE_URL (postgres://… or SQLite by default).`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(usage);
    return;
  }
  if (command === "daemon") {
    const { values } = parseArgs({ args: rest, options: { config: { type: "string" } } });
    if (!values.config) throw new Error(`daemon needs --config FILE\n${usage}`);
    return daemon(values.config);
  }
  if (!["serve", "user", "migrate"].includes(command))
    throw new Error(`unknown command "${command}"\n${usage}`);
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

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
