import type { Db } from "../db/database.ts";
import { errors } from "../errors.ts";

/** 404 ErrServerNotFound unless the panel has a server with this id: checked before touching its rows. */
export async function assertServerExists(db: Db, serverId: string): Promise<void> {
  const row = await db.selectFrom("servers").select("id").where("id", "=", serverId).executeTakeFirst();
  if (!row) throw errors.serverNotFound();
}

/** The node of a server the panel has, else 404 ErrServerNotFound. */
export async function nodeOfServer(db: Db, serverId: string): Promise<number> {
  const row = await db.selectFrom("servers").select("node_id").where("id", "=", serverId).executeTakeFirst();
  if (!row) throw errors.serverNotFound();
  // PostgreSQL may answer integer columns of some drivers as strings.
  return Number(row.node_id);
}
