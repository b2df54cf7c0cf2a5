import { randomBytes, randomUUID } from "node:crypto";
import type { DeleteQueryBuilder, DeleteResult, Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import type { Database, OAuthClientTable } from "../db/tables.ts";
import { ApiError, errors } from "../errors.ts";
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

export const clientNameMax = 100;
export const clientDescriptionMax = 4000;
/** Clients one user may own (their own and those they made on servers), so no one can fill the database. */
export const clientsPerUserMax = 100;

/** A client's name (1–100 characters once trimmed) and description (at most 4000). */
export function checkClientFields(input: { name: string; description?: string }): {
  name: string;
  description: string;
} {
  const name = input.name.trim();
  if (!name) throw errors.fieldRequired("name");
  if (name.length > clientNameMax) throw errors.fieldLength("name", 1, clientNameMax);
  const description = (input.description ?? "").trim();
  if (description.length > clientDescriptionMax) {
    throw errors.fieldLength("description", 0, clientDescriptionMax);
  }
  return { name, description };
}

/** OAuth2 client credentials. The secret is shown once and stored as its SHA-256. */
export class OAuthClients {
  constructor(
    private readonly db: Db,
    /** Told of the tokens a deleted client had, once they are gone: what was opened with them ends too. */
    private readonly onTokensRevoked: (tokenHashes: string[]) => void = () => {},
  ) {}

  async create(input: {
    userId: number;
    name: string;
    description?: string;
    serverId?: string;
    scopes?: string[];
  }): Promise<{ client: OAuthClient; secret: string }> {
    const { n } = await this.db
      .selectFrom("oauth_clients")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", input.userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= clientsPerUserMax) {
      throw new ApiError(400, "ErrTooManyClients", "at most ${limit} OAuth2 clients per user", {
        limit: clientsPerUserMax,
      });
    }
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

  /** A user's own clients (not bound to a server), oldest first. */
  async listOwn(userId: number): Promise<OAuthClient[]> {
    const rows = await this.db
      .selectFrom("oauth_clients")
      .selectAll()
      .where("user_id", "=", userId)
      .where("server_id", "=", "")
      .orderBy("created_at")
      .orderBy("client_id")
      .execute();
    return rows.map(toClient);
  }

  /** A user's own client: it acts with its owner's scopes. The secret is in the answer only. */
  async createOwn(
    userId: number,
    input: { name: string; description?: string },
  ): Promise<{ client: OAuthClient; secret: string }> {
    return this.create({ userId, ...checkClientFields(input) });
  }

  /** Deletes a user's own client and the tokens it was issued; someone else's is as unknown as a missing one. */
  async deleteOwn(userId: number, clientId: string): Promise<void> {
    const deleted = await this.deleteWhere(clientId, (q) =>
      q.where("user_id", "=", userId).where("server_id", "=", ""),
    );
    if (!deleted) throw errors.clientNotFound();
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
    return this.deleteWhere(clientId, (q) => q.where("server_id", "=", serverId));
  }

  /** Deletes the client if `narrow` still finds it, with every token it was issued, in one transaction. */
  private deleteWhere(
    clientId: string,
    narrow: (
      q: DeleteQueryBuilder<Database, "oauth_clients", DeleteResult>,
    ) => DeleteQueryBuilder<Database, "oauth_clients", DeleteResult>,
  ): Promise<boolean> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const gone = await narrow(
          trx.deleteFrom("oauth_clients").where("client_id", "=", clientId),
        ).executeTakeFirst();
        if (Number(gone.numDeletedRows) === 0) return undefined;
        const tokens = await trx
          .deleteFrom("sessions")
          .where("client_id", "=", clientId)
          .returning("token_hash")
          .execute();
        return tokens.map((t) => t.token_hash);
      })
      .then((revoked) => {
        if (revoked === undefined) return false;
        this.onTokensRevoked(revoked);
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
