#!/usr/bin/env node
// `npm start`'s first step: the panel's local node runs every host server in
// bubblewrap and refuses to start them without it. Saying so here, before the
// build, spares a first server that will not start.
import fs from "node:fs";
import path from "node:path";

const wanted = process.env.OUTPOST_LOCAL_NODE !== "false" && process.env.OUTPOST_UNSANDBOXED !== "allow";
const found = (process.env.PATH ?? "")
  .split(path.delimiter)
  .concat(["/usr/bin", "/bin"])
  .some((dir) => {
    try {
      fs.accessSync(path.join(dir, "bwrap"), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

if (wanted && !found && process.platform === "linux") {
  console.warn(
    [
      "",
      "  bubblewrap (bwrap) is not installed: the local node will refuse to start or install servers,",
      "  because it runs each one in a bubblewrap sandbox. Install it, then start again:",
      "",
      "      sudo apt-get install bubblewrap      (Debian, Ubuntu)",
      "      sudo dnf install bubblewrap          (Fedora, RHEL)",
      "",
      "  (OUTPOST_UNSANDBOXED=allow runs servers without a sandbox instead: unsafe on a shared panel.)",
      "",
    ].join("\n"),
  );
}
