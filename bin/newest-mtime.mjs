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
  for (const entry of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}
