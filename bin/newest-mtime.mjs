// Shared by `outpost` (bin/outpost.mjs) and `npm start` (scripts/build-if-stale.mjs): is a build
// older than the sources it was made from?
import fs from "node:fs";
import path from "node:path";

/** The newest modification time below a path (0 when it does not exist). */
export function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  // Joined by hand: path.join() on a few hundred paths made V8 optimize
  // path.normalize's inner loop, which the daemon then also runs: its
  // optimizing compiler's code (about 3 MiB) stayed resident in a process that
  // then idles (a node's daemon is held to 50 MiB).
  for (const entry of fs.readdirSync(target))
    latest = Math.max(latest, newest(`${target}${path.sep}${entry}`));
  return latest;
}
