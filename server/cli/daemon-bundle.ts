import "../regexp-guard.ts";
import { parseArgs } from "node:util";
import { daemon } from "./daemon.ts";

/**
 * The entry of the self-contained daemon bundle (dist-daemon/outpost-daemon.mjs):
 * `node outpost-daemon.mjs --config FILE` on a node's host, with no checkout
 * and no node_modules there. It is `outpost daemon` and nothing else.
 */
const { values } = parseArgs({ options: { config: { type: "string" } } });
if (!values.config) {
  console.error(
    "usage: node outpost-daemon.mjs --config FILE (the file comes from the node's page in the panel)",
  );
  process.exit(2);
}
daemon(values.config).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
