import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, settledBackup } from "../support/backups.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { S3StandIn } from "../support/s3-stand-in.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const none = { keepLast: 0, keepDaily: 0, keepWeekly: 0, keepMonthly: 0, maxTotalBytes: 0 };

async function backUp(api: Client, id: string, name: string): Promise<Backup> {
  expect((await api.post(`/api/servers/${id}/backup/create?name=${name}`)).status).toBe(204);
  const backup = await settledBackup(api, id, (await backupNamed(api, id, name)).id);
  expect(backup.state, backup.error).toBe("ready");
  return backup;
}

const listed = async (api: Client, id: string) =>
  (await api.get<Backup[]>(`/api/servers/${id}/backup`)).body.map((b) => b.name);

/** Pruning runs on the node right after the backup is ready: the list follows it shortly. */
async function listedSoon(api: Client, id: string, names: string[]): Promise<void> {
  await waitUntil(async () => JSON.stringify(await listed(api, id)) === JSON.stringify(names), 10_000, 100);
}

function policyOn(label: string, id: string, node: () => number, api: () => Client) {
  describe(`backup policy and pins on ${label}`, () => {
    beforeAll(async () => {
      const res = await api().put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: node() });
      expect(res.status, res.text).toBe(200);
      await api().call("PUT", `/api/servers/${id}/file/a.txt`, {
        raw: "a",
        headers: { "content-type": "application/octet-stream" },
      });
    });
    afterAll(async () => {
      await api().delete(`/api/servers/${id}`);
    });

    it("keeps everything until a policy is set; a pinned backup outlives keepLast; unpinned it goes with the next backup", async () => {
      expect((await api().get(`/api/servers/${id}/backup-policy`)).body).toEqual(none);
      const first = await backUp(api(), id, "first");
      await backUp(api(), id, "second");
      expect(await listed(api(), id)).toEqual(["second", "first"]);

      const pinned = await api().put(`/api/servers/${id}/backup/${first.id}`, { pinned: true });
      expect(pinned.status, pinned.text).toBe(200);
      expect(pinned.body).toMatchObject({ id: first.id, pinned: true });

      const set = await api().put(`/api/servers/${id}/backup-policy`, { ...none, keepLast: 1 });
      expect(set.status, set.text).toBe(200);
      expect(set.body).toEqual({ ...none, keepLast: 1 });
      expect((await api().get(`/api/servers/${id}/backup-policy`)).body).toEqual({ ...none, keepLast: 1 });
      // Applied at once: "second" is the newest, "first" is pinned.
      expect(await listed(api(), id)).toEqual(["second", "first"]);

      await backUp(api(), id, "third");
      await listedSoon(api(), id, ["third", "first"]);
      expect((await backupNamed(api(), id, "first")).pinned).toBe(true);

      expect((await api().put(`/api/servers/${id}/backup/${first.id}`, { pinned: false })).body.pinned).toBe(
        false,
      );
      await backUp(api(), id, "fourth");
      await listedSoon(api(), id, ["fourth"]);
    });

    it("a size bound removes the oldest until the rest fits, the newest always kept", async () => {
      const size = (await backupNamed(api(), id, "fourth")).size;
      const set = await api().put(`/api/servers/${id}/backup-policy`, {
        ...none,
        maxTotalBytes: size * 2 + 1,
      });
      expect(set.status, set.text).toBe(200);
      await backUp(api(), id, "fifth");
      await backUp(api(), id, "sixth");
      await listedSoon(api(), id, ["sixth", "fifth"]);
      await api().put(`/api/servers/${id}/backup-policy`, none);
    });

    it("refuses counts out of range", async () => {
      expect((await api().put(`/api/servers/${id}/backup-policy`, { ...none, keepLast: -1 })).status).toBe(
        400,
      );
      expect((await api().put(`/api/servers/${id}/backup-policy`, { keepLast: 1 })).status).toBe(400);
      expect((await api().put(`/api/servers/${id}/backup/999999`, { pinned: true })).status).toBe(404);
    });
  });
}

describe("backup policy", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  let s3: S3StandIn;
  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "policy-remote"));
    s3 = await S3StandIn.start();
  });
  afterAll(async () => {
    await daemon?.destroy();
    await s3?.destroy();
  });

  policyOn(
    "the local node",
    "f0000001",
    () => 0,
    () => admin,
  );
  policyOn(
    "a remote node",
    "f0000002",
    () => remoteNode,
    () => admin,
  );
  describe("with an S3 target", () => {
    beforeAll(async () => {
      expect(
        (await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: s3.target("policy/") })).status,
      ).toBe(204);
    });
    afterAll(async () => {
      await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: { type: "local" } });
    });
    policyOn(
      "S3",
      "f0000003",
      () => remoteNode,
      () => admin,
    );
  });

  it("each call needs its scope", async () => {
    const id = "f0000004";
    expect((await admin.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: 0 })).status).toBe(
      200,
    );
    fs.writeFileSync(path.join(panel().dataDir, "node", "servers", id, "a.txt"), "a");
    const backup = await backUp(admin, id, "scoped");
    const user = newUser("policy");
    const client = await registeredClient(panel(), user);
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.create"]);
    expectError(await client.get(`/api/servers/${id}/backup-policy`), 403, "ErrMissingScope", {
      scope: "server.backup.view",
    });
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.view"]);
    expect((await client.get(`/api/servers/${id}/backup-policy`)).status).toBe(200);
    for (const [url, body] of [
      [`/api/servers/${id}/backup-policy`, none],
      [`/api/servers/${id}/backup/${backup.id}`, { pinned: true }],
    ] as const) {
      expectError(await client.put(url, body), 403, "ErrMissingScope", { scope: "server.backup.delete" });
    }
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.delete"]);
    expect((await client.put(`/api/servers/${id}/backup/${backup.id}`, { pinned: true })).status).toBe(200);
    expect((await client.put(`/api/servers/${id}/backup-policy`, none)).status).toBe(200);
    expect((await admin.delete(`/api/servers/${id}`)).status).toBe(204);
  });
});
