import "./regexp-guard.ts";
import "./start-up-memory.ts";
import { parseArgs } from "node:util";

const usage = `usage: outpost <command>
  --version                               print the version
  serve [--no-local-node]                 start the panel (and its local node)
  daemon --config FILE                    run a node on its own (the file comes from the node's deployment page)
  user add --email E --username U [--password P] [--admin]
  user passwd --email E [--password P]
  migrate                                 apply database migrations and exit
  upgrade check                           what this version changes for this installation (changes nothing)
  template check FILE|FOLDER…             convert and validate templates and eggs without saving
  import pterodactyl|pelican --database URL [--apply] [--node ID] [--volumes DIR] [--app-key KEY] [--environment host]
                                          bring another panel's users, servers, tasks and databases (a dry run unless --apply)

Configuration comes from the environment: OUTPOST_PORT (8080), OUTPOST_HOST (0.0.0.0),
OUTPOST_DATA_DIR (./data), OUTPOST_PUBLIC_URL, DATABASE_URL (postgres://… or SQLite by default).`;

// Each command imports what it runs when it runs: `outpost daemon` then loads
// neither the panel nor its database drivers (the build splits them apart).
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(usage);
    return;
  }
  if (command === "--version" || command === "version") {
    const { productVersion } = await import("./version.ts");
    console.log(`outpost ${productVersion}`);
    return;
  }
  if (command === "daemon") {
    const { values } = parseArgs({ args: rest, options: { config: { type: "string" } } });
    if (!values.config) throw new Error(`daemon needs --config FILE\n${usage}`);
    const { daemon } = await import("./cli/daemon.ts");
    return daemon(values.config);
  }
  if (command === "template" && rest[0] === "check") {
    const { templateCheck } = await import("./cli/template-check.ts");
    const { loadYaml } = await import("./templates/yaml.ts");
    await loadYaml();
    if (!templateCheck(rest.slice(1))) process.exitCode = 1;
    return;
  }
  if (!["serve", "user", "migrate", "upgrade", "import"].includes(command))
    throw new Error(`unknown command "${command}"\n${usage}`);
  const { panelCommand } = await import("./cli/panel-command.ts");
  return panelCommand(command, rest);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
