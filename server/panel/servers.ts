import { type Selectable, sql } from "kysely";
import type { Paging, ServerView } from "../contract/api/servers.ts";
import type { NodeServers, ServerDataView } from "../contract/node/server-wire.ts";
import { creationUserScopes } from "../contract/scopes.ts";
import type { Db } from "../db/database.ts";
import type { ServerTable } from "../db/tables.ts";
import { ApiError, errors } from "../errors.ts";
import type { NodeClient } from "../link/node-client.ts";
import { portVariables, type Template, type Variable, type VariableValue } from "../templates/index.ts";
import {
  hiddenNames,
  keepHidden,
  refuseHiddenValues,
  withoutHidden,
  withoutHiddenData,
  withoutHiddenGroups,
} from "./hidden-variables.ts";
import type { Nodes } from "./nodes.ts";
import { likePattern, pageOf, pageSizeMax } from "./paging.ts";
import type { PanelChanges } from "./panel-changes.ts";
import { type Permissions, rightsOn } from "./permissions.ts";
import type { Principal } from "./principal.ts";
import { holdsScope } from "./scopes.ts";
import { ServerCreations } from "./server-creations.ts";
import { portValues, ServerPorts, withPortValues } from "./server-ports.ts";
import type { SharedState } from "./shared-state.ts";
import { canonicalJson } from "./templates/canonical-json.ts";

const limitsAdminOnly = () =>
  new ApiError(403, "ErrLimitsAdminOnly", "only an administrator may set a server's limits");
const templateRequired = () =>
  new ApiError(
    403,
    "ErrTemplateRequired",
    "only an administrator may create a server from a definition that is not a template as it is",
  );
const environmentAdminOnly = () =>
  new ApiError(403, "ErrEnvironmentAdminOnly", "only an administrator may change a server's environment");

/** Where a non-administrator's definition must come from (template-repos.ts). */
export interface VouchedTemplates {
  vouchedTemplateOf(definition: Record<string, unknown>): Promise<Template | undefined>;
}

/** An object's entries in key order, for comparing limits whatever order they were written in. */
function sortedKeys(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

type Row = Selectable<ServerTable>;
/** The columns a server's view shows: lists read only these (each column read costs per row). */
const viewColumns = ["id", "name", "node_id", "type", "ip", "port", "icon"] as const;
type ViewRow = Pick<Row, (typeof viewColumns)[number]>;

/** What the panel records of a definition: where players connect, and how to show it. */
function recordedFields(definition: Record<string, unknown>) {
  const data = (definition.data ?? {}) as Record<string, Partial<Variable>>;
  const port = Number(data.port?.value);
  return {
    ip: typeof data.ip?.value === "string" ? data.ip.value : "",
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 0,
    type: typeof definition.type === "string" ? definition.type : "",
    icon: typeof definition.icon === "string" ? definition.icon : "",
  };
}

/**
 * Servers as the panel knows them: a row per server (name, node, address,
 * type) and per-server scopes; the definition itself lives on the node.
 */
export class Servers {
  private readonly creations: ServerCreations;
  /** Ports of servers on nodes with allocations (issue 36). */
  readonly ports: ServerPorts;
  /** Runs before a server is deleted (its databases are dropped); a failure stops the deletion. */
  onDelete?: (id: string) => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
    private readonly nodes: Nodes,
    private readonly templates: VouchedTemplates,
    shared?: SharedState,
    /** Told once a server is recorded or gone (the alert watch follows the set of servers). */
    private readonly changes?: PanelChanges,
  ) {
    this.creations = new ServerCreations(db, nodes, shared);
    this.ports = new ServerPorts(db, permissions);
  }

  /**
   * Who may create what (an Outpost rule; the reference stores any holder's definition): an
   * administrator creates a server from any definition. Anyone else holding server.create creates
   * it from a template as it is, one an administrator vouched for (template-repos.ts,
   * vouchedTemplateOf): its run command, install steps, environment, requirements come from the
   * template; the caller picks only the variables' values, one of the environments it offers, the
   * name, the node and the users. So what only administrators may choose (limits, what runs and how
   * it is confined, Docker options) is never the caller's.
   */
  async create(id: string, body: Record<string, unknown>, principal?: Principal): Promise<void> {
    const { name: rawName, node: rawNode, users: rawUsers, ports: chosenPorts, ...given } = body;
    let definition: Record<string, unknown> = given;
    if (principal && !holdsScope(principal.scopes, "admin")) {
      if (given.limits !== undefined) throw limitsAdminOnly();
      const template = await this.templates.vouchedTemplateOf(given);
      if (!template) throw templateRequired();
      definition = template as unknown as Record<string, unknown>;
    }
    const name = typeof rawName === "string" && rawName.trim() ? rawName.trim() : id;
    const nodeId = typeof rawNode === "number" ? rawNode : 0;
    const usernames = Array.isArray(rawUsers) ? rawUsers.map(String) : [];
    if (await this.db.selectFrom("servers").select("id").where("id", "=", id).executeTakeFirst()) {
      throw new ApiError(409, "ErrServerAlreadyExists", "server ${id} already exists", { id });
    }
    const client = await this.nodes.client(nodeId).catch(() => {
      throw new ApiError(400, "ErrNodeInvalid", "node ${node} does not exist", { node: nodeId });
    });
    const users: number[] = [];
    for (const username of usernames) {
      const user = await this.db
        .selectFrom("users")
        .select("id")
        .where("username", "=", username)
        .executeTakeFirst();
      if (!user) throw new ApiError(400, "ErrUserNotFound", "no user named ${username}", { username });
      users.push(user.id);
    }
    // Claimed first, so that a crash before the panel records the server leaves a claim naming
    // what it held (the node's part, the pool's ports), taken back at the next start (see
    // server-creations.ts).
    const claim = await this.creations.claim(id, nodeId);
    // On a node with a pool, each port variable takes one of its free allocations.
    const ports = await this.ports
      .claimForCreate(
        id,
        nodeId,
        definition,
        chosenPorts && typeof chosenPorts === "object" ? (chosenPorts as Record<string, unknown>) : undefined,
        principal,
      )
      .catch(async (err) => {
        await this.creations.abandon(id, claim, false).catch(() => {});
        throw err;
      });
    if (ports) definition = withPortValues(definition, ports.values);
    // The node checks the definition and its requirements; only then does the panel record it.
    try {
      await this.creations.onNode(id, nodeId, claim, () =>
        client.servers.createServer(id, { ...definition, id }),
      );
    } catch (err) {
      // A refusal (4xx) made nothing; anything else may have made the server before failing.
      const refused = err instanceof ApiError && err.status < 500;
      await this.creations.abandon(id, claim, !refused).catch(() => {});
      if (ports) await this.ports.release(id).catch(() => {});
      throw err;
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.creations.settle(trx, id, claim);
        await trx
          .insertInto("servers")
          .values({
            id,
            name,
            node_id: nodeId,
            ...recordedFields(definition),
            ...(ports ? { ip: ports.ip, port: ports.port } : {}),
            created_at: Date.now(),
          })
          .execute();
        await this.permissions.within(trx).addToNewServer(id, users, creationUserScopes);
      });
    } catch (err) {
      await this.creations.abandon(id, claim, true).catch(() => {});
      if (ports) await this.ports.release(id).catch(() => {});
      throw err;
    }
    this.changes?.tell("servers");
  }

  /** Takes back the node's part of creations a crash cut short (at start, and now and then). */
  reconcile(): Promise<string[]> {
    return this.creations.reconcile();
  }

  async list(
    principal: Principal,
    query: { page?: number; limit?: number; name?: string; node?: number },
  ): Promise<{
    servers: ServerView[];
    paging: Paging;
  }> {
    const { page, pageSize, offset } = pageOf(query);
    const seesAll = holdsScope(principal.scopes, "admin");
    let filtered = this.db.selectFrom("servers");
    if (principal.onlyServer !== undefined) {
      // A server-bound client sees its server, even when its owner (an administrator) has no row there.
      filtered = filtered.where("id", "=", principal.onlyServer);
    } else if (!seesAll) {
      filtered = filtered.where("id", "in", this.permissions.serversOfQuery(principal.user.id));
    }
    if (query.name) {
      const pattern = likePattern(query.name.includes("*") ? query.name : `*${query.name}*`);
      filtered = filtered.where(sql<boolean>`lower(${sql.ref("name")}) like ${pattern} escape '\\'`);
    }
    if (query.node !== undefined) filtered = filtered.where("node_id", "=", query.node);
    const counted = await filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
    const total = Number(counted?.n ?? 0);
    const rows = await filtered
      .select(viewColumns)
      .orderBy("name")
      .orderBy("id")
      .limit(pageSize)
      .offset(offset)
      .execute();
    const scopesById = seesAll
      ? new Map<string, string[]>()
      : await this.permissions.serverScopesOnEach(
          principal.user.id,
          rows.map((row) => row.id),
        );
    const nodes = await this.nodeSummaries();
    const servers = rows.map((row) => ({
      ...this.view(row, nodes),
      canGetStatus:
        seesAll || holdsScope(rightsOn(principal.scopes, scopesById.get(row.id) ?? []), "server.status"),
    }));
    return { servers, paging: { page, pageSize, maxSize: pageSizeMax, total } };
  }

  async get(id: string): Promise<ServerView> {
    return this.view(await this.row(id), await this.nodeSummaries());
  }

  async delete(id: string): Promise<void> {
    const client = await this.clientOf(id);
    await this.onDelete?.(id);
    await client.deleteServer(id);
    await this.db.transaction().execute(async (trx) => {
      await this.permissions.within(trx).dropServer(id);
      await trx.deleteFrom("oauth_clients").where("server_id", "=", id).execute();
      // The node removed the backup files with the server (reference §12.11).
      await trx.deleteFrom("backups").where("server_id", "=", id).execute();
      await trx.deleteFrom("servers").where("id", "=", id).execute();
    });
    await this.ports.release(id);
    this.changes?.tell("servers");
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) throw new ApiError(400, "ErrFieldRequired", "${field} is required", { field: "name" });
    if (trimmed.length > 100)
      throw new ApiError(400, "ErrFieldLength", "${field} must be between ${min} and ${max} characters", {
        field: "name",
        min: 1,
        max: 100,
      });
    await this.row(id);
    await this.db.updateTable("servers").set({ name: trimmed }).where("id", "=", id).execute();
  }

  /**
   * A new definition for a server. Its limits and its environment are the
   * administrators' (an Outpost rule; the reference has no limits): anyone
   * else's definition keeps the server's current ones — left out they are
   * kept, changed it is refused.
   */
  async replaceDefinition(principal: Principal, id: string, body: Record<string, unknown>): Promise<void> {
    const client = await this.clientOf(id);
    let definition = body;
    if (!holdsScope(principal.scopes, "admin")) {
      const stored = await client.definition(id);
      const { limits: current, environment, egg } = stored;
      if (
        body.limits !== undefined &&
        JSON.stringify(sortedKeys(body.limits)) !== JSON.stringify(sortedKeys(current))
      ) {
        throw limitsAdminOnly();
      }
      // The environment (host or Docker, and the container's image, network …) is theirs too.
      if (body.environment !== undefined && canonicalJson(body.environment) !== canonicalJson(environment))
        throw environmentAdminOnly();
      // An imported egg's part (egg.ts: its install image and script, its file_denylist, its
      // rules) is the administrators' as the environment is, as eggs are in Pterodactyl: the
      // install runs in a container of the image it names, and the denylist protects files from
      // the server's users. Left out, it is kept.
      const givenEgg = body.egg;
      if (givenEgg !== undefined && canonicalJson(givenEgg) !== canonicalJson(egg ?? null))
        throw environmentAdminOnly();
      const { limits: _ignored, environment: _kept, ...rest } = body;
      // The egg's hidden variables, which their read left out, are kept (hidden-variables.ts).
      definition = keepHidden(
        {
          ...rest,
          environment,
          ...(current ? { limits: current } : {}),
          ...(givenEgg === undefined && egg ? { egg } : {}),
        },
        stored,
      );
    }
    const data = (definition.data ?? {}) as Record<string, Partial<Variable>>;
    const ports = await this.portChange(principal, id, portValues(data), portVariables(data), () =>
      client.definition(id),
    );
    await client.replaceDefinition(id, definition);
    await ports?.();
    await this.refreshRecord(id);
  }

  /** A server's definition as this principal may read it: an egg's hidden variables are the administrators'. */
  async definitionFor(principal: Principal, id: string): Promise<Template> {
    const definition = await (await this.clientOf(id)).definition(id);
    return holdsScope(principal.scopes, "admin") ? definition : withoutHidden(definition);
  }

  /** A server's variables (`all`, or the user-editable ones) as this principal may read them. */
  async dataFor(principal: Principal, id: string, all: boolean): Promise<ServerDataView> {
    const client = await this.clientOf(id);
    const view = await client.serverData(id, all);
    if (holdsScope(principal.scopes, "admin")) return view;
    const hidden = hiddenNames(await client.definition(id));
    const shown: ServerDataView = {
      ...view,
      data: withoutHiddenData(view.data, hidden),
      groups: withoutHiddenGroups(view.groups, hidden),
    };
    if (view.rules) shown.rules = withoutHiddenData(view.rules, hidden);
    return shown;
  }

  /** Sets variable values; a non-administrator's may not name an egg's hidden variable. */
  async setData(
    principal: Principal,
    id: string,
    values: Record<string, VariableValue>,
    onlyUserEditable: boolean,
  ): Promise<void> {
    const client = await this.clientOf(id);
    let stored: Template | undefined;
    if (!holdsScope(principal.scopes, "admin")) {
      stored = await client.definition(id);
      refuseHiddenValues(values, hiddenNames(stored));
    }
    const ports = await this.portChange(
      principal,
      id,
      values,
      undefined,
      async () => stored ?? client.definition(id),
    );
    await client.setServerData(id, values, onlyUserEditable);
    if (ports) {
      await ports();
      await this.refreshRecord(id);
    }
  }

  /**
   * A change of port variables on a pooled node: checked now, recorded once the node took it.
   * `names`: the port variables (of the new definition; else of the stored one). A value left as
   * it is needs no check (a server from before the pool keeps its port when its settings are saved).
   */
  private async portChange(
    principal: Principal,
    id: string,
    values: Record<string, VariableValue>,
    names: string[] | undefined,
    stored: () => Promise<Template>,
  ) {
    const row = await this.row(id);
    if (!(await this.ports.pooled(row.node_id))) return undefined;
    const current = (await stored()).data;
    const ports = names ?? portVariables(current);
    const changed = Object.fromEntries(
      Object.entries(values).filter(
        ([name, value]) => ports.includes(name) && String(value) !== String(current[name]?.value),
      ),
    );
    if (Object.keys(changed).length === 0) return undefined;
    return this.ports.checkChange(id, row.node_id, ports, changed, principal);
  }

  /** After the node took a new definition or values: keep address, type and icon in step. */
  async refreshRecord(id: string): Promise<void> {
    const definition = await (await this.clientOf(id)).definition(id);
    // While it holds a primary allocation, that is its address.
    const primary = await this.ports.primaryOf(id);
    await this.db
      .updateTable("servers")
      .set({ ...recordedFields(definition as unknown as Record<string, unknown>), ...primary })
      .where("id", "=", id)
      .execute();
  }

  /** The node-side servers API for the node this server lives on. */
  async clientOf(id: string): Promise<NodeServers> {
    return (await this.nodeOf(id)).servers;
  }

  /** The node this server lives on (its files, backups and query go through it). */
  async nodeOf(id: string): Promise<NodeClient> {
    const row = await this.row(id);
    return this.nodes.client(row.node_id);
  }

  private async row(id: string): Promise<Row> {
    const row = await this.db.selectFrom("servers").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw errors.serverNotFound();
    return row;
  }

  /** Name and public address of every node, read once per request. */
  private async nodeSummaries(): Promise<Map<number, ServerView["node"]>> {
    const nodes = await this.nodes.list();
    return new Map(
      nodes.map((n) => [
        n.id,
        { id: n.id, name: n.name, publicHost: n.publicHost, publicPort: n.publicPort, sftpPort: n.sftpPort },
      ]),
    );
  }

  private view(row: ViewRow, nodes: Map<number, ServerView["node"]>): ServerView {
    const view: ServerView = {
      id: row.id,
      name: row.name,
      node: nodes.get(row.node_id) ?? {
        id: row.node_id,
        name: "",
        publicHost: "",
        publicPort: 0,
        sftpPort: 0,
      },
      type: row.type,
    };
    if (row.ip) view.ip = row.ip;
    if (row.port) view.port = row.port;
    if (row.icon) view.icon = row.icon;
    return view;
  }
}
