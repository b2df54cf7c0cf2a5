import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activityActions } from "../../../server/api/pipeline/activity-actions.ts";
import { redacted, withoutSecrets } from "../../../server/api/pipeline/activity-details.ts";
import { declaredRoutes } from "../../../server/api/pipeline/guard.ts";
import { buildApp } from "../../../server/app.ts";
import { readConfig } from "../../../server/config.ts";
import { openDatabase } from "../../../server/db/database.ts";
import { createServices } from "../../../server/panel/services.ts";

/** Every guarded route of a real app, as the guard declared them. */
async function writeRoutes(): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-activity-routes-"));
  const config = readConfig({
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_LOCAL_NODE: "false",
    OUTPOST_LOG_LEVEL: "silent",
    OUTPOST_WEB_DIR: dataDir,
  });
  const opened = openDatabase({ dataDir });
  try {
    const app = await buildApp(config, createServices(config, opened.db));
    await app.ready();
    const routes = declaredRoutes(app)
      .filter((r) => !["GET", "HEAD", "OPTIONS"].includes(r.method))
      .map((r) => `${r.method} ${r.url}`);
    await app.close();
    return routes;
  } finally {
    await opened.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe("the activity log's action table", () => {
  it("names every route that may change something, and nothing else", async () => {
    const routes = await writeRoutes();
    // A new write route is recorded as api.write until it is named in activity-actions.ts.
    expect(routes.filter((r) => !(r in activityActions))).toEqual([]);
    expect(Object.keys(activityActions).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it("strips secrets by field name at any depth and bounds the rest", () => {
    const details = withoutSecrets({
      username: "ann",
      password: "p",
      newPassword: "p",
      nested: { client_secret: "s", token: "t", otpCode: "1", "panel.email.key": "k", fine: "yes" },
      long: "x".repeat(2000),
      list: Array.from({ length: 100 }, (_, i) => i),
    });
    expect(details).toMatchObject({ username: "ann", password: redacted, newPassword: redacted });
    expect(details.nested).toEqual({
      client_secret: redacted,
      token: redacted,
      otpCode: redacted,
      "panel.email.key": redacted,
      fine: "yes",
    });
    expect(String(details.long).length).toBeLessThan(600);
    expect((details.list as number[]).length).toBe(40);
  });
});
