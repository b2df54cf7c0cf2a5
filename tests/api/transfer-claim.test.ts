import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError } from "../support/expect-api.ts";
import { withPanelDb } from "../support/panel-db.ts";
import { loopbackNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

/**
 * A move claims its server with a row in server_transfers: only that row's key
 * being taken means "already being moved"; any other failure of the insert is
 * the database's and must not be passed off as a move under way.
 */
describe("claiming a server for a move", () => {
  const panel = usePanel();
  let api: PanelClient;
  let target: number;
  const id = "claim001";

  beforeAll(async () => {
    api = await adminClient(panel());
    // A node nothing answers for: the move is refused or fails at the claim, before any node is asked.
    const node = await api.post("/api/nodes", await loopbackNode("unreached"));
    expect(node.status, node.text).toBe(200);
    target = node.body.id;
    expect((await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
  }, 60_000);

  it("answers 409 ErrTransferInProgress while another move holds the server", async () => {
    await withPanelDb(panel(), (db) =>
      db
        .insertInto("server_transfers")
        .values({ server_id: id, from_node: 0, to_node: target, started_at: Date.now() })
        .execute(),
    );
    try {
      expectError(
        await api.post(`/api/servers/${id}/transfer`, { node: target }),
        409,
        "ErrTransferInProgress",
      );
    } finally {
      await withPanelDb(panel(), (db) =>
        db.deleteFrom("server_transfers").where("server_id", "=", id).execute(),
      );
    }
  });

  it("answers a failing database as the failure it is (500), not as a move under way", async () => {
    const postgres = Boolean(panel().databaseUrl);
    // The insert fails for a reason other than the key: as a database that lost its disk would.
    await withPanelDb(panel(), async (db) => {
      if (postgres) {
        await sql`create function refuse_claims() returns trigger language plpgsql as $$
          begin raise exception 'could not write block' using errcode = '58030'; end $$`.execute(db);
        await sql`create trigger refuse_claims before insert on server_transfers
          for each row execute function refuse_claims()`.execute(db);
      } else {
        await sql`create trigger refuse_claims before insert on server_transfers
          begin select raise(abort, 'disk I/O error'); end`.execute(db);
      }
    });
    try {
      const answer = await api.post(`/api/servers/${id}/transfer`, { node: target });
      expectError(answer, 500, "ErrUnknownError");
    } finally {
      await withPanelDb(panel(), async (db) => {
        await sql`drop trigger refuse_claims${postgres ? sql` on server_transfers` : sql``}`.execute(db);
        if (postgres) await sql`drop function refuse_claims()`.execute(db);
      });
    }
    // Nothing was claimed: the server stays where it was, free to be moved.
    expect((await api.get(`/api/servers/${id}`)).body.server.node.id).toBe(0);
    const claims = await withPanelDb(panel(), (db) =>
      db.selectFrom("server_transfers").select("server_id").where("server_id", "=", id).execute(),
    );
    expect(claims).toEqual([]);
  });
});
