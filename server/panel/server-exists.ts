import type { Db } from "../db/database.ts";
import { errors } from "../errors.ts";

/** 404 ErrServerNotFound unless the panel has a server with this id: checked before touching its rows. */
export async function assertServerExists(db: Db, serverId: string): Promise<void> {
  const row = await db.selectFrom("servers").select("id").where("id", "=", serverId).executeTakeFirst();
  if (!row) throw errors.serverNotFound();
}
