import type { DatabaseHostBody, DatabaseHostView, DatabaseType } from "../../contract/api/databases.ts";
import type { Db } from "../../db/database.ts";
import type { DatabaseHostTable } from "../../db/tables.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { ApiError, errors } from "../../errors.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";
import type { DatabaseEngine } from "./engine.ts";
import { engineFor } from "./engines.ts";

type HostRow = Omit<DatabaseHostTable, "id"> & { id: number };

const invalid = (field: string, why: string) =>
  new ApiError(400, "ErrFieldInvalid", "${field} is not valid: ${why}", { field, why });
export const hostNotFound = () => new ApiError(404, "ErrDatabaseHostNotFound", "no such database host");

/** A host name or an IP address (v6 in brackets or bare): nothing a connection string would misread. */
const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]+\]?$/;
const printable = /^[^\p{Cc}]+$/u;

const parseNodes = (stored: string): number[] | null =>
  stored === "" ? null : stored.split(",").map(Number);

/**
 * Database hosts (issue 36): MySQL/MariaDB or PostgreSQL servers the panel holds an account on.
 * Administrators only. Their address is whatever the administrator says, private ones included,
 * and is not put through net/public-address.ts: a database host is usually on the nodes' private
 * network, only an administrator can name one, and no one else can make the panel connect to it.
 * The account's password is sealed and never answered.
 */
export class DatabaseHosts {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async list(): Promise<DatabaseHostView[]> {
    const rows = (await this.db
      .selectFrom("database_hosts")
      .selectAll()
      .orderBy("id")
      .execute()) as HostRow[];
    const counts = await this.db
      .selectFrom("server_databases")
      .select(["host_id", (eb) => eb.fn.countAll<number>().as("count")])
      .groupBy("host_id")
      .execute();
    const byHost = new Map(counts.map((c) => [Number(c.host_id), Number(c.count)]));
    return rows.map((row) => this.view(row, byHost.get(row.id) ?? 0));
  }

  async get(id: number): Promise<DatabaseHostView> {
    return this.view(await this.row(id), await this.count(id));
  }

  async create(body: DatabaseHostBody): Promise<DatabaseHostView> {
    if (!body.password) throw errors.fieldRequired("password");
    const values = {
      ...(await this.checked(body)),
      password: this.box.seal(body.password),
      created_at: Date.now(),
    };
    try {
      const made = await this.db
        .insertInto("database_hosts")
        .values(values)
        .returning("id")
        .executeTakeFirstOrThrow();
      return await this.get(Number(made.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(body.name);
      throw error;
    }
  }

  /** The whole host again; a password left out or "" keeps the stored one (the form never holds it). */
  async update(id: number, body: DatabaseHostBody): Promise<DatabaseHostView> {
    const row = await this.row(id);
    const values = await this.checked(body);
    if (values.type !== row.type && (await this.count(id)) > 0)
      throw hostInUse(row.name, await this.count(id));
    try {
      await this.db
        .updateTable("database_hosts")
        .set({ ...values, ...(body.password ? { password: this.box.seal(body.password) } : {}) })
        .where("id", "=", id)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(body.name);
      throw error;
    }
    return await this.get(id);
  }

  /**
   * Refused while it holds databases: they would be left on the host with nobody to drop them.
   * `forget` is the way out for a host that is gone: its databases' records go with it.
   */
  async delete(id: number, { forget = false } = {}): Promise<void> {
    const row = await this.row(id);
    const held = await this.count(id);
    if (held > 0 && !forget) throw hostInUse(row.name, held);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("server_databases").where("host_id", "=", id).execute();
      await trx.deleteFrom("database_hosts").where("id", "=", id).execute();
    });
  }

  /** Connects as the panel's account and answers the version, or says what failed. */
  async test(id: number): Promise<{ ok: true; version: string }> {
    return { ok: true, version: await (await this.engine(id)).version() };
  }

  async engine(id: number): Promise<DatabaseEngine> {
    const row = await this.row(id);
    return engineFor(row.type as DatabaseType, {
      name: row.name,
      host: row.host,
      port: Number(row.port),
      username: row.username,
      password: this.box.open(row.password),
    });
  }

  async row(id: number): Promise<HostRow> {
    const row = await this.db
      .selectFrom("database_hosts")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw hostNotFound();
    return row as HostRow;
  }

  private async count(id: number): Promise<number> {
    const row = await this.db
      .selectFrom("server_databases")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("host_id", "=", id)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  private async checked(body: DatabaseHostBody) {
    const name = body.name.trim();
    if (!name || !printable.test(name)) throw invalid("name", "printable characters, not blank");
    const host = body.host.trim();
    if (!hostPattern.test(host)) throw invalid("host", "a host name or an IP address");
    const username = body.username;
    if (!printable.test(username) || username.trim() !== username)
      throw invalid("username", "no spaces at either end or control characters");
    const nodes = body.nodes && body.nodes.length > 0 ? [...new Set(body.nodes)].sort((a, b) => a - b) : null;
    if (nodes) {
      const known = await this.db.selectFrom("nodes").select("id").where("id", "in", nodes).execute();
      const found = new Set([0, ...known.map((n) => Number(n.id))]);
      const missing = nodes.find((n) => !found.has(n));
      if (missing !== undefined) throw invalid("nodes", `there is no node ${missing}`);
    }
    return {
      name,
      type: body.type,
      host: host.replace(/^\[(.*)\]$/, "$1"),
      port: body.port,
      username,
      nodes: nodes ? nodes.join(",") : "",
      max_databases: body.maxDatabases ?? null,
    };
  }

  private view(row: HostRow, databases: number): DatabaseHostView {
    return {
      id: Number(row.id),
      name: row.name,
      type: row.type as DatabaseType,
      host: row.host,
      port: Number(row.port),
      username: row.username,
      password: "",
      passwordSet: row.password !== "",
      nodes: parseNodes(row.nodes),
      maxDatabases: row.max_databases === null ? null : Number(row.max_databases),
      databases,
    };
  }
}

export { parseNodes };

const nameTaken = (name: string) =>
  new ApiError(409, "ErrDatabaseHostNameTaken", "a database host named ${name} already exists", { name });
const hostInUse = (host: string, count: number) =>
  new ApiError(409, "ErrDatabaseHostInUse", "database host ${host} still holds ${count} databases", {
    host,
    count,
  });
