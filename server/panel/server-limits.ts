import type { Kysely } from "kysely";
import type { ServerHostingLimits, ServerHostingLimitsBody } from "../contract/api/server-limits.ts";
import type { Database } from "../db/tables.ts";
import { errors } from "../errors.ts";

/**
 * How many extra port allocations and databases a server may hold (issue 36). Administrators set
 * them; the allocation and database services check against them before they add one.
 */
export class ServerLimits {
  constructor(private readonly db: Kysely<Database>) {}

  async get(serverId: string): Promise<ServerHostingLimits> {
    const row = await this.db
      .selectFrom("servers")
      .select(["allocation_limit", "database_limit"])
      .where("id", "=", serverId)
      .executeTakeFirst();
    if (!row) throw errors.serverNotFound();
    return { allocationLimit: Number(row.allocation_limit), databaseLimit: Number(row.database_limit) };
  }

  async set(serverId: string, change: ServerHostingLimitsBody): Promise<ServerHostingLimits> {
    const columns: { allocation_limit?: number; database_limit?: number } = {};
    if (change.allocationLimit !== undefined) columns.allocation_limit = change.allocationLimit;
    if (change.databaseLimit !== undefined) columns.database_limit = change.databaseLimit;
    if (Object.keys(columns).length > 0) {
      const result = await this.db
        .updateTable("servers")
        .set(columns)
        .where("id", "=", serverId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw errors.serverNotFound();
    }
    return await this.get(serverId);
  }
}
