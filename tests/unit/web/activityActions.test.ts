import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activityActions } from "../../../server/api/pipeline/activity-actions.ts";
import { labelledActions } from "../../../src/screens/activity/actionLabels";

const serverDir = path.resolve(import.meta.dirname, "../../../server");
/** What an action looks like: dotted lower-case words (`server.user.edit`, `self.notification.deleteAll`). */
const actionLiteral = /["'`]([a-z]+(?:\.[a-z][A-Za-z]*)+)["'`]/g;
const literals = (text: string) => [...text.matchAll(actionLiteral)].map((m) => m[1]);

/**
 * Every action the server can record: the route table's (a computed one's from its code, each
 * sign-in's `.failed` too), and what other sources record (`action: …` in an activity record, the
 * SFTP session's `record("file.write", …)`).
 */
function serverActions(): Map<string, string> {
  const found = new Map<string, string>();
  const add = (action: string, where: string) => found.has(action) || found.set(action, where);
  for (const [route, rule] of Object.entries(activityActions)) {
    if (rule.skip) continue;
    const actions = typeof rule.action === "string" ? [rule.action] : literals(String(rule.action));
    for (const action of actions) {
      add(action, route);
      if (rule.signIn) add(`${action}.failed`, route);
    }
  }
  // The table itself is read above, where a rule left out (`skip`) is known.
  const table = path.join("api", "pipeline", "activity-actions.ts");
  for (const file of fs.readdirSync(serverDir, { recursive: true }).map(String)) {
    if (!file.endsWith(".ts") || file.startsWith("contract") || file === table) continue;
    const text = fs.readFileSync(path.join(serverDir, file), "utf8");
    for (const [, expression] of text.matchAll(/\baction: ([^\n]+)/g))
      for (const action of literals(expression)) add(action, `server/${file}`);
    for (const [, action] of text.matchAll(/\brecord\("([a-z]+(?:\.[a-z][A-Za-z]*)+)"/g))
      add(action, `server/${file}`);
  }
  return found;
}

describe("activity actions in the client's words", () => {
  const recorded = serverActions();

  it("has a label for every action the server can record", () => {
    expect(recorded.size).toBeGreaterThan(70);
    // Among them those only a node or the panel records, which the route table does not name.
    for (const other of [
      "auth.sftp.failed",
      "file.symlink",
      "task.disable",
      "api.write",
      "auth.login.failed",
    ])
      expect(recorded.has(other), other).toBe(true);
    const labelled = new Set(labelledActions());
    const missing = [...recorded]
      .filter(([action]) => !labelled.has(action))
      .map(([a, where]) => `${a} (${where})`);
    // A new action needs its line in src/screens/activity/actionLabels.ts, translated (npm run i18n:check).
    expect(missing).toEqual([]);
  });

  it("labels nothing the server no longer records", () => {
    expect(labelledActions().filter((action) => !recorded.has(action))).toEqual([]);
  });
});
