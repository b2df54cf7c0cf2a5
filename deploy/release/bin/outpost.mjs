// A release's entry (bin/outpost runs it): the panel and CLI built ahead of time, or for
// `outpost daemon` the self-contained daemon bundle. A release has no sources to run instead.
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
if (process.argv[2] === "daemon") {
  // The bundle takes `--config FILE` alone, as on a node's host.
  process.argv.splice(2, 1);
  await import(path.join(root, "dist-daemon", "outpost-daemon.mjs"));
} else {
  await import(path.join(root, "dist-server", "outpost.mjs"));
}
