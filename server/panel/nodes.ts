import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { BackupTargetInput, NodeView } from "../contract/api/nodes.ts";
import type { Db } from "../db/database.ts";
import type { NodeTable } from "../db/tables.ts";
import { ApiError, errors } from "../errors.ts";
import type { NodeClient } from "../link/node-client.ts";
import { RemoteNode } from "../link/remote-node.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import { BackupTargets } from "./backup-targets.ts";
import { NodeMonitor } from "./node-monitor.ts";
import { checkNodeFields, type NodeFields } from "./node-rules.ts";
import type { Settings } from "./settings.ts";

/** A change to a node: its fields, and (administrators only) where its backups go. */
export interface NodeChanges extends Partial<NodeFields> {
  backupTarget?: BackupTargetInput;
}

export const localNodeId = 0;

export interface LocalNodeOptions {
  client: NodeClient;
  sftpPort: number;
}

const notFound = () => new ApiError(404, "ErrNodeNotFound", "no node with this id");

/**
 * Nodes: the rows in the database, plus the panel's own local node (id 0,
 * listed last, its address derived from the panel's public URL). Holds one
 * NodeClient per node and keeps their reachability fresh.
 */
export class Nodes {
  private readonly clients = new Map<number, NodeClient>();
  private readonly monitor = new NodeMonitor(
    (id) => this.onUnreachable(id),
    (id) => this.onReachable(id),
  );
  /** Told when a node that answered stops answering (the alert dispatcher). */
  onUnreachable: (nodeId: number) => void = () => {};
  /** Told when a remote node answers after not answering, its first answer included (task review). */
  onReachable: (nodeId: number) => void = () => {};
  private readonly backupTargets: BackupTargets;

  constructor(
    private readonly db: Db,
    private readonly settings: Settings,
    private readonly local: LocalNodeOptions | undefined,
    /** Seals node secrets at rest: the panel signs its calls with them, so they cannot be hashed. */
    private readonly box: SecretBox,
  ) {
    if (local) this.clients.set(localNodeId, local.client);
    this.backupTargets = new BackupTargets(db, box);
  }

  /** Starts watching every remote node; call once the panel is up. */
  async start(): Promise<void> {
    for (const row of await this.db.selectFrom("nodes").selectAll().execute()) this.watch(row);
  }

  stop(): void {
    this.monitor.stop();
  }

  async list(): Promise<NodeView[]> {
    const rows = await this.db.selectFrom("nodes").selectAll().orderBy("name").execute();
    const views = rows.map((row) => this.view(row));
    if (this.local) views.push(await this.localView());
    return views;
  }

  /** Which nodes answer now, as a key: with the database, it decides what list() shows. */
  reachability(): string {
    let key = "";
    for (const [id, client] of this.clients) key += `${id}:${client.reachable ? 1 : 0},`;
    return key;
  }

  /** `withBackupTarget`: an administrator asks, who may see where its backups go. */
  async get(id: number, withBackupTarget = false): Promise<NodeView> {
    let view: NodeView;
    if (id === localNodeId) {
      if (!this.local) throw notFound();
      view = await this.localView();
    } else {
      view = this.view(await this.row(id));
    }
    if (withBackupTarget) view.backupTarget = await this.backupTargets.view(id);
    return view;
  }

  async create(fields: NodeFields): Promise<NodeView> {
    const checked = checkNodeFields(fields);
    await this.assertNameFree(checked.name);
    const row = await this.db
      .insertInto("nodes")
      .values({
        name: checked.name,
        public_host: checked.publicHost,
        public_port: checked.publicPort,
        private_host: checked.privateHost,
        private_port: checked.privatePort,
        sftp_port: checked.sftpPort,
        secret: this.box.seal(randomBytes(32).toString("hex")),
        created_at: Date.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.watch(row);
    return this.view(row);
  }

  /** Partial update. The local node's address follows the panel's URL, so there is nothing to change on it. */
  async update(id: number, { backupTarget, ...changes }: NodeChanges, byAdmin: boolean): Promise<void> {
    if (backupTarget !== undefined && !byAdmin) throw errors.missingScope("admin");
    if (id === localNodeId) {
      if (!this.local) throw notFound();
      if (backupTarget !== undefined) await this.backupTargets.set(id, backupTarget, this.local.client);
      return;
    }
    const current = this.view(await this.row(id));
    const merged = checkNodeFields({ ...current, ...stripUndefined(changes) });
    if (merged.name !== current.name) await this.assertNameFree(merged.name, id);
    if (backupTarget !== undefined) await this.backupTargets.set(id, backupTarget, await this.client(id));
    const row = await this.db
      .updateTable("nodes")
      .set({
        name: merged.name,
        public_host: merged.publicHost,
        public_port: merged.publicPort,
        private_host: merged.privateHost,
        private_port: merged.privatePort,
        sftp_port: merged.sftpPort,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    this.watch(row);
  }

  async delete(id: number): Promise<void> {
    if (id === localNodeId)
      throw new ApiError(400, "ErrCannotDeleteLocalNode", "the local node cannot be deleted");
    await this.row(id);
    const servers = await this.db
      .selectFrom("servers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("node_id", "=", id)
      .executeTakeFirstOrThrow();
    if (Number(servers.n) > 0) {
      throw new ApiError(409, "ErrNodeHasServers", "the node still has ${count} servers", {
        count: Number(servers.n),
      });
    }
    await this.db.deleteFrom("nodes").where("id", "=", id).execute();
    // Its pool of ports goes with it (no server holds one: it has none).
    await this.db.deleteFrom("allocations").where("node_id", "=", id).execute();
    await this.backupTargets.forget(id);
    this.monitor.unwatch(id);
    this.clients.delete(id);
  }

  /** What an administrator needs to run `outpost daemon` for this node on its host. */
  async deployment(id: number) {
    // The reference answers 200 here too. The local node has no secret of its own (the panel
    // calls it in-process), so the answer names it and holds nothing that could be misused.
    if (id === localNodeId) return { clientId: `.node_${localNodeId}`, clientSecret: "", publicKey: "" };
    const row = await this.row(id);
    const secret = this.box.open(row.secret);
    const panelUrl = String(await this.settings.get("panel.settings.masterUrl")).replace(/\/+$/, "");
    return {
      clientId: `.node_${row.id}`,
      clientSecret: secret,
      // Kept for the reference's shape; nodes here verify the panel with the shared secret.
      publicKey: "",
      config: {
        nodeId: row.id,
        secret,
        panelUrl,
        listen: { host: "0.0.0.0", port: row.private_port },
        sftp: { host: "0.0.0.0", port: row.sftp_port },
        dataDir: "/var/lib/outpost",
      },
    };
  }

  /** Every node's client the panel holds (the local node and every remote one it watches). */
  allClients(): NodeClient[] {
    return [...this.clients.values()];
  }

  /** The client for a node; throws 404 for an unknown node. */
  async client(id: number): Promise<NodeClient> {
    const known = this.clients.get(id);
    if (known) return known;
    if (id === localNodeId) throw notFound();
    return this.watch(await this.row(id));
  }

  private watch(row: Selectable<NodeTable>): NodeClient {
    const client = new RemoteNode({
      nodeId: row.id,
      secret: this.box.open(row.secret),
      baseUrl: `http://${bracketIpv6(row.private_host)}:${row.private_port}`,
    });
    this.clients.set(row.id, client);
    this.monitor.watch(client);
    return client;
  }

  private async row(id: number): Promise<Selectable<NodeTable>> {
    const row = await this.db.selectFrom("nodes").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  private async assertNameFree(name: string, exceptId?: number): Promise<void> {
    let q = this.db.selectFrom("nodes").select("id").where("name", "=", name);
    if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
    if ((await q.executeTakeFirst()) || name === "LocalNode") {
      throw new ApiError(409, "ErrDuplicateNodeName", "a node named ${name} already exists", { name });
    }
  }

  private view(row: Selectable<NodeTable>): NodeView {
    return {
      id: row.id,
      name: row.name,
      publicHost: row.public_host,
      publicPort: row.public_port,
      privateHost: row.private_host,
      privatePort: row.private_port,
      sftpPort: row.sftp_port,
      isLocal: false,
      reachable: this.clients.get(row.id)?.reachable ?? false,
    };
  }

  private async localView(): Promise<NodeView> {
    const url = new URL(String(await this.settings.get("panel.settings.masterUrl")));
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return {
      id: localNodeId,
      name: "LocalNode",
      publicHost: url.hostname,
      publicPort: port,
      privateHost: url.hostname,
      privatePort: port,
      sftpPort: this.local?.sftpPort ?? 5657,
      isLocal: true,
      reachable: true,
    };
  }
}

const bracketIpv6 = (host: string) => (host.includes(":") ? `[${host}]` : host);

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
