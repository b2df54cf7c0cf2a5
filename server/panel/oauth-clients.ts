import { randomBytes, randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import type { OAuthClientTable } from "../db/tables.ts";
import { sameSecret, tokenHash } from "./tokens.ts";

export interface OAuthClient {
  clientId: string;
  userId: number;
  serverId: string;
  name: string;
  description: string;
  /** Empty for a user's own client: it acts with its owner's scopes. */
  scopes: string[];
}

function toClient(row: Selectable<OAuthClientTable>): OAuthClient {
  return {
    clientId: row.client_id,
    userId: row.user_id,
    serverId: row.server_id,
    name: row.name,
    description: row.description,
    scopes: row.scopes ? row.scopes.split(",") : [],
  };
}

/** OAuth2 client credentials. The secret is shown once and stored as its SHA-256. */
export class OAuthClients {
  constructor(private readonly db: Db) {}

  async create(input: {
    userId: number;
    name: string;
    description?: string;
    serverId?: string;
    scopes?: string[];
  }): Promise<{ client: OAuthClient; secret: string }> {
    const clientId = randomUUID();
    const secret = randomBytes(36).toString("base64url");
    const client: OAuthClient = {
      clientId,
      userId: input.userId,
      serverId: input.serverId ?? "",
      name: input.name,
      description: input.description ?? "",
      scopes: input.scopes ?? [],
    };
    await this.db
      .insertInto("oauth_clients")
      .values({
        client_id: clientId,
        user_id: client.userId,
        server_id: client.serverId,
        name: client.name,
        description: client.description,
        secret_hash: tokenHash(secret),
        scopes: client.scopes.join(","),
        created_at: Date.now(),
      })
      .execute();
    return { client, secret };
  }

  async byId(clientId: string): Promise<OAuthClient | undefined> {
    const row = await this.db
      .selectFrom("oauth_clients")
      .selectAll()
      .where("client_id", "=", clientId)
      .executeTakeFirst();
    return row ? toClient(row) : undefined;
  }

  /** The clients bound to one server, oldest first. */
  async listByServer(serverId: string): Promise<OAuthClient[]> {
    if (!serverId) return [];
    const rows = await this.db
      .selectFrom("oauth_clients")
      .selectAll()
      .where("server_id", "=", serverId)
      .orderBy("created_at")
      .orderBy("client_id")
      .execute();
    return rows.map(toClient);
  }

  /** Deletes a client of this server and the tokens it was issued; false when the server has no such client. */
  async deleteOfServer(serverId: string, clientId: string): Promise<boolean> {
    if (!serverId) return false;
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom("oauth_clients")
        .where("client_id", "=", clientId)
        .where("server_id", "=", serverId)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await trx.deleteFrom("sessions").where("client_id", "=", clientId).execute();
      return true;
    });
  }

  /** The client when id and secret match, otherwise undefined (same answer for both failures). */
  async authenticate(clientId: string, secret: string): Promise<OAuthClient | undefined> {
    const row = await this.db
      .selectFrom("oauth_clients")
      .select(["client_id", "secret_hash"])
      .where("client_id", "=", clientId)
      .executeTakeFirst();
    if (!row || !sameSecret(row.secret_hash, tokenHash(secret))) return undefined;
    return this.byId(clientId);
  }
}
