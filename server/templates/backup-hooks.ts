import { assignDefined, readInteger, readObject, readString, readStringList } from "./fields.ts";
import { childPath, type Problems } from "./problems.ts";
import type { BackupHooks } from "./types.ts";

/** The longest a template may make a backup wait for its `waitFor` line. */
const backupHookTimeoutMax = 3600;
/** Without a `timeout`, how long a backup waits for `waitFor`. */
export const backupHookTimeoutDefault = 60;

/**
 * The template's `backup` (an Outpost addition): console lines sent before
 * a backup of a running server (`before`) and after it (`after`), a line
 * awaited after `before` (`waitFor`, up to `timeout` seconds) and the
 * paths every backup of it leaves out (`exclude`, gitignore patterns).
 */
export function parseBackupHooks(raw: unknown, path: string, problems: Problems): BackupHooks | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const at = (key: string) => childPath(path, key);
  const timeout = readInteger(object.timeout, at("timeout"), problems);
  if (timeout !== undefined && (timeout < 1 || timeout > backupHookTimeoutMax)) {
    problems.push({ path: at("timeout"), problem: `must be from 1 to ${backupHookTimeoutMax} seconds` });
  }
  const waitFor = readString(object.waitFor, at("waitFor"), problems);
  return assignDefined<BackupHooks>(
    {},
    {
      before: readStringList(object.before, at("before"), problems),
      after: readStringList(object.after, at("after"), problems),
      waitFor: waitFor || undefined,
      timeout,
      exclude: readStringList(object.exclude, at("exclude"), problems),
    },
  );
}

/** The hooks the Minecraft servers (templates and imported eggs) get: the world flushed and held still. */
export const minecraftBackupHooks: BackupHooks = {
  before: ["save-off", "save-all flush"],
  after: ["save-on"],
  waitFor: "Saved the game",
  timeout: backupHookTimeoutDefault,
};
