import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KyselyPlugin } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../../server/db/database.ts";
import { SharedState } from "../../../server/panel/shared-state.ts";
import { scratchShared } from "../../support/scratch-db.ts";

/** The job turns and connection places of SharedState, two "panels" (two instances) on one database. */
describe("SharedState", () => {
  const shared = scratchShared();

  it("gives a job's turn to one panel per period, however many ask", async () => {
    const panels = [shared(), shared(), shared()];
    const t = 1_800_000_000_000;
    const first = await Promise.all(panels.map((p) => p.claimJob("purge", 60_000, t)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(
      (await Promise.all(panels.map((p) => p.claimJob("purge", 60_000, t + 59_999)))).some(Boolean),
    ).toBe(false);
    expect(
      (await Promise.all(panels.map((p) => p.claimJob("purge", 60_000, t + 60_000)))).filter(Boolean),
    ).toHaveLength(1);
    // Another job has turns of its own.
    expect(await panels[1].claimJob("reconcile", 60_000, t)).toBe(true);
  });

  it("makes sure of a job's row once per panel: each later turn is one update", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-shared-"));
    const opened = openDatabase({ dataDir: dir });
    try {
      await migrate(opened);
      const kinds: string[] = [];
      const counting: KyselyPlugin = {
        transformQuery: ({ node }) => {
          kinds.push(node.kind);
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const panel = new SharedState(opened.db.withPlugin(counting));
      const t = 1_800_000_000_000;
      expect(await panel.claimJob("purge", 60_000, t)).toBe(true);
      expect(kinds).toEqual(["InsertQueryNode", "UpdateQueryNode"]);
      kinds.length = 0;
      expect(await panel.claimJob("purge", 60_000, t + 1)).toBe(false);
      expect(await panel.claimJob("purge", 60_000, t + 60_000)).toBe(true);
      expect(kinds).toEqual(["UpdateQueryNode", "UpdateQueryNode"]);
      // Another panel on the same database finds the row there and takes its turns as before.
      expect(await new SharedState(opened.db).claimJob("purge", 60_000, t + 120_000)).toBe(true);
    } finally {
      await opened.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts the places of every live panel, and stops counting a dead panel's once its lease lapses", async () => {
    const [one, two] = [shared(), shared()];
    const caps = { perUser: 2, perSession: 10, perAddress: 10 };
    const held = (session: string) => ({ userId: 7, sessionHash: session, address: "10.0.0.1" });
    expect(await one.holdConnection("c1", held("s1"), caps)).toBeUndefined();
    expect(await two.holdConnection("c2", held("s2"), caps)).toBeUndefined();
    expect(await two.holdConnection("c3", held("s3"), caps)).toBe("user");
    expect(await one.holdConnection("c3", held("s3"), caps)).toBe("user");
    // Panel one stops renewing its lease (killed): when it lapses, its place no longer counts.
    await one.beat(Date.now() - 60_000);
    expect(await two.holdConnection("c3", held("s3"), caps)).toBeUndefined();
    await two.releaseConnection("c2");
    expect(await two.holdConnection("c4", held("s4"), caps)).toBeUndefined();
  });
});
