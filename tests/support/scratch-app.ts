import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type DeclaredRoute, declaredRoutes } from "../../server/api/pipeline/guard.ts";
import { buildApp } from "../../server/app.ts";
import { readConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createServices } from "../../server/panel/services.ts";

/**
 * The panel's real app (routes, guard, services) in this process, on a fresh SQLite file in a
 * temp folder, with no local node and nothing logged. close() shuts it and removes the folder.
 */
export async function openScratchApp(): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-app-"));
  const config = readConfig({
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_LOCAL_NODE: "false",
    OUTPOST_LOG_LEVEL: "silent",
    OUTPOST_WEB_DIR: dataDir,
  });
  const opened = openDatabase({ dataDir });
  const removeAll = async () => {
    await opened.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const app = await buildApp(config, createServices(config, opened.db));
    await app.ready();
    return {
      app,
      close: async () => {
        await app.close();
        await removeAll();
      },
    };
  } catch (error) {
    await removeAll();
    throw error;
  }
}

/** Every route of the real app, as the guard declared them. */
export async function declaredAppRoutes(): Promise<readonly DeclaredRoute[]> {
  const { app, close } = await openScratchApp();
  try {
    return declaredRoutes(app);
  } finally {
    await close();
  }
}
