import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { migrate, type OpenedDatabase, openDatabase } from "../../server/db/database.ts";
import { SharedState } from "../../server/panel/shared-state.ts";

/**
 * For the tests of the calling suite: each on a fresh, migrated SQLite file in a temp folder
 * (removed after it). The answer gives a SharedState over the current test's database.
 */
export function scratchShared(): () => SharedState {
  let dir = "";
  let opened: OpenedDatabase | undefined;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-shared-"));
    opened = openDatabase({ dataDir: dir });
    await migrate(opened);
  });
  afterEach(async () => {
    await opened?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!opened) throw new Error("scratchShared: only inside a test");
    return new SharedState(opened.db);
  };
}
