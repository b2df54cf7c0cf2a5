import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { NodeActivity, NodeEvent } from "../../../server/contract/node/node-events.ts";
import { migrate, type OpenedDatabase, openDatabase } from "../../../server/db/database.ts";
import type { NodeClient } from "../../../server/link/node-client.ts";
import { Activity } from "../../../server/panel/activity.ts";
import { NodeActivityFeed } from "../../../server/panel/node-activity.ts";
import { Settings } from "../../../server/panel/settings.ts";
import { SecretBox } from "../../../server/secrets/secret-box.ts";
import { waitUntil } from "../../support/poll.ts";

let dir: string;
let opened: OpenedDatabase;
let activity: Activity;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-node-activity-"));
  opened = openDatabase({ dataDir: dir });
  await migrate(opened);
  const box = SecretBox.forPanel(dir, undefined);
  activity = new Activity(opened.db, new Settings(opened.db, { defaultPublicUrl: "http://x" }, box));
});
afterEach(async () => {
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A node that streams the given events to whoever subscribes (the feed's one collaborator). */
function nodeSending(nodeId: number, events: NodeEvent[]): NodeClient {
  return {
    nodeId,
    events: {
      async subscribe(_after: string | undefined, onEvent: (e: NodeEvent) => void) {
        for (const e of events) onEvent(e);
        return () => {};
      },
    },
  } as unknown as NodeClient;
}

const upload = (serverId: string): NodeActivity => ({
  at: Date.now(),
  serverId,
  actor: { kind: "sftp", name: "ann@example.com" },
  address: "192.0.2.4",
  action: "file.write",
  ok: true,
  subject: "/world.dat",
  details: { bytes: 3 },
});

it("records a node's events for its own servers only, each event once", async () => {
  const owners: Record<string, number> = { mine: 2, theirs: 3 };
  const events: NodeEvent[] = [
    { id: "boot:1", type: "activity", data: upload("mine") },
    // Heard again (a reconnection replays): kept once.
    { id: "boot:1", type: "activity", data: upload("mine") },
    // A node speaking for another node's server, or for none: ignored.
    { id: "boot:2", type: "activity", data: upload("theirs") },
    { id: "boot:3", type: "activity", data: upload("nowhere") },
  ];
  // The real log, counting the records begun and ended: done when every event was looked up
  // (the lookup answers within microtasks, before a poll's timer) and every record begun has ended.
  let looked = 0;
  let begun = 0;
  let ended = 0;
  const counted = Object.create(activity) as Activity;
  counted.record = async (...args) => {
    begun++;
    try {
      return await activity.record(...args);
    } finally {
      ended++;
    }
  };
  const feed = new NodeActivityFeed(
    () => [nodeSending(2, events)],
    counted,
    async (id) => {
      looked++;
      return owners[id];
    },
  );
  feed.start();
  try {
    await waitUntil(async () => looked === events.length && begun > 0 && ended === begun, 5000, 20);
    const { activity: entries } = await activity.list({}, {});
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorKind: "sftp",
      actor: "ann@example.com",
      address: "192.0.2.4",
      serverId: "mine",
      subject: "/world.dat",
      details: { bytes: 3, via: "sftp" },
    });
  } finally {
    feed.stop();
  }
});
