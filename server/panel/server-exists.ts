import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";

/** 404 ErrServerNotFound unless the panel has a server with this id: checked before touching its rows. */
export async function assertServerExists(db: Db, serverId: string): Promise<void> {
  const row = await db.selectFrom("servers").select("id").where("id", "=", serverId).executeTakeFirst();
  if (!row) throw new ApiError(404, "ErrServerNotFound", "no such server");
}
