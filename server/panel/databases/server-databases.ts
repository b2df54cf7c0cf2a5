import { randomInt } from "node:crypto";
import {
  type DatabaseType,
  databaseNameMax,
  databaseNamePattern,
  type ServerDatabaseBody,
  type ServerDatabaseList,
  type ServerDatabaseView,
} from "../../contract/api/databases.ts";
import type { Db } from "../../db/database.ts";
import type { ServerDatabaseTable } from "../../db/tables.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { ApiError } from "../../errors.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";
import { nodeOfServer } from "../server-exists.ts";
import type { ServerLimits } from "../server-limits.ts";
import { type DatabaseHosts, parseNodes } from "./database-hosts.ts";
import type { DatabaseNames } from "./engine.ts";
import { leftSomething } from "./engine.ts";

type DatabaseRow = Omit<ServerDatabaseTable, "id"> & { id: number };
type HostRow = Awaited<ReturnType<DatabaseHosts["row"]>>;

/** PostgreSQL's identifiers end at 63 bytes (MySQL's at 64): the whole name must fit both. */
const identifierMax = 63;
/** The server id in a name: letters and digits only, so that `s<id>_` can be read back one way. */
const serverIdForNames = /^[A-Za-z0-9]{1,12}$/;
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function randomText(length: number, letters = alphabet): string {
  let text = "";
  for (let i = 0; i < length; i++) text += letters[randomInt(letters.length)];
  return text;
}

/** 32 letters and digits: about 190 bits, safe in any connection string without escaping. */
export const newPassword = () => randomText(32);

const databaseNotFound = () => new ApiError(404, "ErrDatabaseNotFound", "no such database");
const limitReached = (limit: number) =>
  new ApiError(409, "ErrDatabaseLimit", "this server may hold at most ${limit} databases", { limit });

/**
 * A server's databases (issue 36): each made on a database host with one user that may use only
 * it, named `s<serverId>_<name>` and `u<serverId>_<random>`. The panel's row is written first, as
 * 'creating', so that the limits hold under concurrent requests and a crash mid-way leaves a row
 * that says so (deleting it drops whatever the host holds); it turns 'ready' once the host made
 * both. A create the host refused is undone on the host and its row removed.
 */
export class ServerDatabases {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly hosts: DatabaseHosts,
    private readonly limits: ServerLimits,
  ) {}

  async list(serverId: string, withPasswords: boolean): Promise<ServerDatabaseList> {
    const { databaseLimit } = await this.limits.get(serverId);
    const rows = await this.rows(serverId);
    const hosts = new Map<number, HostRow>();
    for (const row of rows)
      if (!hosts.has(row.host_id)) hosts.set(row.host_id, await this.hosts.row(row.host_id));
    const open = await this.candidateHosts(serverId);
    return {
      databases: rows.map((row) => this.view(row, hosts.get(row.host_id) as HostRow, withPasswords)),
      limit: databaseLimit,
      hosts: open.map((h) => ({ id: Number(h.id), name: h.name, type: h.type as DatabaseType })),
    };
  }

  async create(
    serverId: string,
    body: ServerDatabaseBody,
    withPassword: boolean,
  ): Promise<ServerDatabaseView> {
    const { databaseLimit } = await this.limits.get(serverId);
    const names = namesFor(serverId, body.name);
    if ((await this.rows(serverId)).length >= databaseLimit) throw limitReached(databaseLimit);
    const host =
      body.host === undefined ? await this.pickHost(serverId) : await this.hostFor(serverId, body.host);
    const password = newPassword();
    const row = await this.reserve(serverId, host, names, password, databaseLimit);
    try {
      await (await this.hosts.engine(row.host_id)).create(names, password);
    } catch (error) {
      // Nothing stays on the host, so nothing stays here; otherwise the row says what may.
      if (!leftSomething(error))
        await this.db.deleteFrom("server_databases").where("id", "=", row.id).execute();
      throw error;
    }
    await this.db.updateTable("server_databases").set({ state: "ready" }).where("id", "=", row.id).execute();
    return this.view({ ...row, state: "ready" }, host, withPassword);
  }

  /**
   * Records a database that already exists on the host, with its user and password (`outpost
   * import`: another panel made it, and the server's configuration names it). The host is not
   * asked to make anything; the names are kept as they are there.
   */
  async adopt(
    serverId: string,
    hostId: number,
    existing: { database: string; username: string; password: string },
  ): Promise<number> {
    await this.hosts.row(hostId);
    try {
      const made = await this.db
        .insertInto("server_databases")
        .values({
          server_id: serverId,
          host_id: hostId,
          name: existing.database,
          username: existing.username,
          password: this.box.seal(existing.password),
          state: "ready",
          created_at: Date.now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(made.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw exists(String(hostId), existing.database);
      throw error;
    }
  }

  /** The host first (whatever of the pair it holds), then the row: a host that cannot be reached keeps both. */
  async delete(serverId: string, id: number): Promise<void> {
    const row = await this.row(serverId, id);
    await (await this.hosts.engine(row.host_id)).drop(names(row));
    await this.db.deleteFrom("server_databases").where("id", "=", row.id).execute();
  }

  /**
   * A new password, on the host first. A crash between the two leaves the old one stored here;
   * rotating again sets both.
   */
  async rotate(serverId: string, id: number, withPassword: boolean): Promise<ServerDatabaseView> {
    const row = await this.row(serverId, id);
    if (row.state !== "ready") throw databaseNotFound();
    const password = newPassword();
    await (await this.hosts.engine(row.host_id)).setPassword(names(row), password);
    const sealed = this.box.seal(password);
    await this.db
      .updateTable("server_databases")
      .set({ password: sealed })
      .where("id", "=", row.id)
      .execute();
    return this.view({ ...row, password: sealed }, await this.hosts.row(row.host_id), withPassword);
  }

  /** A server being deleted takes its databases along; one that cannot be dropped stops the deletion. */
  async dropAll(serverId: string): Promise<void> {
    for (const row of await this.rows(serverId)) await this.delete(serverId, row.id);
  }

  private async reserve(
    serverId: string,
    host: HostRow,
    names: DatabaseNames,
    password: string,
    limit: number,
  ): Promise<DatabaseRow> {
    const values = {
      server_id: serverId,
      host_id: Number(host.id),
      name: names.database,
      username: names.username,
      password: this.box.seal(password),
      state: "creating",
      created_at: Date.now(),
    };
    let id: number;
    try {
      id = Number(
        (
          await this.db
            .insertInto("server_databases")
            .values(values)
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw exists(host.name, names.database);
      throw error;
    }
    // Counted after the row is in: of two requests racing for the last place, one sees the other.
    const refusal =
      (await this.count("server_id", serverId)) > limit
        ? limitReached(limit)
        : host.max_databases !== null &&
            (await this.count("host_id", Number(host.id))) > Number(host.max_databases)
          ? hostFull(host.name, Number(host.max_databases))
          : undefined;
    if (refusal) {
      await this.db.deleteFrom("server_databases").where("id", "=", id).execute();
      throw refusal;
    }
    return { ...values, id };
  }

  /** The hosts that serve this server's node and have room, in the order they were added. */
  private async candidateHosts(serverId: string): Promise<HostRow[]> {
    const nodeId = await this.nodeOf(serverId);
    const all = await Promise.all(
      (await this.hosts.list()).map(async (h) => ({ view: h, row: await this.hosts.row(h.id) })),
    );
    return all
      .filter(
        ({ view }) =>
          (view.nodes === null || view.nodes.includes(nodeId)) &&
          (view.maxDatabases === null || view.databases < view.maxDatabases),
      )
      .map(({ row }) => row);
  }

  private async pickHost(serverId: string): Promise<HostRow> {
    const [first] = await this.candidateHosts(serverId);
    if (!first) throw new ApiError(409, "ErrNoDatabaseHost", "no database host serves this server's node");
    return first;
  }

  private async hostFor(serverId: string, hostId: number): Promise<HostRow> {
    const host = await this.hosts.row(hostId);
    const nodes = parseNodes(host.nodes);
    if (nodes && !nodes.includes(await this.nodeOf(serverId)))
      throw new ApiError(
        409,
        "ErrDatabaseHostNotForNode",
        "database host ${host} does not serve this server's node",
        {
          host: host.name,
        },
      );
    if (host.max_databases !== null && (await this.count("host_id", hostId)) >= Number(host.max_databases))
      throw hostFull(host.name, Number(host.max_databases));
    return host;
  }

  private nodeOf(serverId: string): Promise<number> {
    return nodeOfServer(this.db, serverId);
  }

  private async count(column: "server_id" | "host_id", value: string | number): Promise<number> {
    const row = await this.db
      .selectFrom("server_databases")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where(column, "=", value)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  private async rows(serverId: string): Promise<DatabaseRow[]> {
    return (await this.db
      .selectFrom("server_databases")
      .selectAll()
      .where("server_id", "=", serverId)
      .orderBy("id")
      .execute()) as DatabaseRow[];
  }

  private async row(serverId: string, id: number): Promise<DatabaseRow> {
    const row = await this.db
      .selectFrom("server_databases")
      .selectAll()
      .where("id", "=", id)
      .where("server_id", "=", serverId)
      .executeTakeFirst();
    if (!row) throw databaseNotFound();
    return { ...row, id: Number(row.id), host_id: Number(row.host_id) };
  }

  private view(row: DatabaseRow, host: HostRow, withPassword: boolean): ServerDatabaseView {
    const password = withPassword ? this.box.open(row.password) : undefined;
    const address = host.host.includes(":") ? `[${host.host}]` : host.host;
    const at = `${address}:${host.port}/${row.name}`;
    const scheme = host.type === "postgres" ? "postgres" : "mysql";
    return {
      id: Number(row.id),
      name: row.name,
      username: row.username,
      ...(password !== undefined ? { password } : {}),
      state: row.state === "ready" ? "ready" : "creating",
      host: {
        id: Number(host.id),
        name: host.name,
        type: host.type as DatabaseType,
        address: host.host,
        port: Number(host.port),
      },
      jdbc: `jdbc:${host.type === "postgres" ? "postgresql" : "mysql"}://${at}`,
      url: `${scheme}://${row.username}${password !== undefined ? `:${password}` : ""}@${at}`,
      createdAt: new Date(Number(row.created_at)).toISOString(),
    };
  }
}

const names = (row: DatabaseRow): DatabaseNames => ({ database: row.name, username: row.username });

/** `s<serverId>_<name>` and a user `u<serverId>_<8 random>`, both within every host's limits. */
function namesFor(serverId: string, name: string): DatabaseNames {
  if (!serverIdForNames.test(serverId))
    throw new ApiError(
      400,
      "ErrDatabaseServerId",
      "databases need a server id of at most 12 letters and digits",
    );
  const prefix = `s${serverId}_`;
  const max = Math.min(databaseNameMax, identifierMax - prefix.length);
  const bare = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if (!databaseNamePattern.test(bare) || bare.length > max)
    throw new ApiError(400, "ErrDatabaseNameInvalid", "a database name is 1 to ${max} letters, digits or _", {
      max,
    });
  return {
    database: prefix + bare,
    username: `u${serverId}_${randomText(8, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
  };
}

const exists = (host: string, name: string) =>
  new ApiError(409, "ErrDatabaseExists", "a database or user named ${name} already exists on ${host}", {
    host,
    name,
  });
const hostFull = (host: string, max: number) =>
  new ApiError(409, "ErrDatabaseHostFull", "database host ${host} holds its most databases (${max})", {
    host,
    max,
  });
