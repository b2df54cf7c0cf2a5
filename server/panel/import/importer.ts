import { randomBytes } from "node:crypto";
import { serverIdPattern } from "../../contract/constants.ts";
import { importTemplate } from "../../templates/import.ts";
import type { PanelServices } from "../services.ts";
import { localRepoId } from "../templates/template-repos.ts";
import { claimExtras, importAllocations, portChoices } from "./allocations.ts";
import { errorText, refusedHere } from "./error-text.ts";
import { importBackups } from "./import-backups.ts";
import { importDatabaseHosts, importDatabases } from "./import-databases.ts";
import { importFiles } from "./import-files.ts";
import { importSshKeys } from "./import-ssh-keys.ts";
import { importUsers } from "./import-users.ts";
import { ImportedIds } from "./imported-ids.ts";
import { LaravelEncrypter } from "./laravel-encrypter.ts";
import { mapPermissions } from "./permission-map.ts";
import { serverDefinition } from "./server-definition.ts";
import type { SourceEgg, SourcePanel, SourceServer } from "./source-panel.ts";
import { taskOfSchedule } from "./task-map.ts";
import type { WingsLogin } from "./wings-sftp.ts";

export interface ImportOptions {
  /** Only with it is anything written; without, the same run tells what it would do. */
  apply: boolean;
  /** Every server onto this Outpost node, instead of one new remote node per source node. */
  nodeId?: number;
  /** The Wings volumes on this host: one folder per server's uuid. */
  volumes?: string;
  /** An old panel's administrator: the files of servers not in `volumes` come over their node's SFTP. */
  sftp?: WingsLogin;
  /** The source panel's APP_KEY: TOTP secrets and database passwords are decrypted with it. */
  appKey?: string;
  /** Wings' backups folder on this host (`<backup uuid>.tar.gz`): its node-disk backups come from there. */
  backups?: string;
  /** The node whose S3 backup target is the old panel's bucket (else the only S3 target here). */
  backupTarget?: number;
  /** `host`: servers run in the host environment rather than Docker. */
  environment?: "host";
  /** The locales this panel speaks (folder names such as de_DE), for the users' language. */
  locales: readonly string[];
}

export interface ImportCounts {
  created: number;
  mapped: number;
  kept: number;
  skipped: number;
}

/**
 * `outpost import pterodactyl|pelican`: the source's users, nodes, eggs, servers, subusers,
 * schedules, database hosts, databases and S3 backups made here through the panel's own services, in that
 * order (each needs the one before). Every line printed says what is created, mapped onto what
 * is here, kept from an earlier run, or skipped and why. A second run finds what it made in the
 * table of imported ids and leaves it alone; one cut short goes on where it stopped.
 */
export class PanelImport {
  readonly counts: ImportCounts = { created: 0, mapped: 0, kept: 0, skipped: 0 };
  private readonly ids: ImportedIds;
  private known = new Map<string, string>();
  private readonly encrypter?: LaravelEncrypter;
  /** Source ids → ours for this run (a dry run's are what would be made). */
  readonly users = new Map<number, { id: number; username: string }>();
  /** Source users mapped onto an account that was here: it is left as it is (no keys added). */
  readonly leftAlone = new Set<number>();
  readonly nodes = new Map<number, number>();
  private readonly templates = new Map<number, string>();
  readonly servers = new Map<number, string>();
  /** Source allocation ids → ours (issue 36's pools). */
  readonly allocations = new Map<number, number>();
  readonly hosts = new Map<number, number>();

  constructor(
    readonly services: PanelServices,
    sourceLabel: string,
    readonly source: SourcePanel,
    readonly options: ImportOptions,
    private readonly print: (line: string) => void,
  ) {
    this.ids = new ImportedIds(services.db, sourceLabel);
    if (options.appKey) this.encrypter = new LaravelEncrypter(options.appKey);
  }

  async run(): Promise<ImportCounts> {
    this.known = await this.ids.all();
    await importUsers(this);
    await importSshKeys(this);
    await this.importNodes();
    await importAllocations(this);
    await this.importEggs();
    await this.importServers();
    await this.importSubusers();
    await this.importSchedules();
    await importDatabaseHosts(this);
    await importDatabases(this);
    await importBackups(this);
    return this.counts;
  }

  line(kind: keyof ImportCounts, text: string): void {
    this.counts[kind] += 1;
    const verb = {
      created: this.options.apply ? "create" : "would create",
      mapped: "map",
      kept: "keep",
      skipped: "skip",
    }[kind];
    this.print(`${verb.padEnd(12)} ${text}`);
  }

  /** A line of more detail under the one before (a node's config, a copy's progress): not counted. */
  note(text: string): void {
    this.print(`${"".padEnd(12)} ${text}`);
  }

  earlier(kind: string, sourceId: number | string): string | undefined {
    return this.known.get(`${kind}:${sourceId}`);
  }

  async record(kind: string, sourceId: number | string, ourId: number | string): Promise<void> {
    this.known.set(`${kind}:${sourceId}`, String(ourId));
    if (this.options.apply) await this.ids.record(kind, sourceId, ourId);
  }

  get canDecrypt(): boolean {
    return this.encrypter !== undefined;
  }

  decrypt(payload: string): string | undefined {
    return this.encrypter?.decrypt(payload);
  }

  private async importNodes(): Promise<void> {
    const { nodes } = this.services;
    if (this.options.nodeId !== undefined) {
      const target = await nodes.get(this.options.nodeId);
      for (const node of this.source.nodes) {
        this.nodes.set(node.id, target.id);
        this.line("mapped", `node ${node.name} (${node.fqdn}) → node ${target.name} (${target.id}) (--node)`);
      }
      return;
    }
    for (const node of this.source.nodes) {
      const label = `node ${node.name} (${node.fqdn})`;
      const before = this.earlier("node", node.id);
      if (before) {
        this.nodes.set(node.id, Number(before));
        this.line("kept", `${label}: imported before (node ${before})`);
        continue;
      }
      if (!this.options.apply) {
        this.nodes.set(node.id, -node.id);
        this.line("created", `${label} as a remote node waiting for its daemon`);
        continue;
      }
      try {
        const made = await nodes.create({
          name: node.name,
          publicHost: node.fqdn,
          publicPort: node.daemonPort,
          privateHost: node.fqdn,
          privatePort: node.daemonPort,
          sftpPort: node.sftpPort,
        });
        this.nodes.set(node.id, made.id);
        await this.record("node", node.id, made.id);
        this.line("created", `${label} as node ${made.id}, waiting for its daemon`);
        const deployment = await nodes.deployment(made.id);
        this.print(
          `             on ${node.fqdn}, in place of Wings: save this as /etc/outpost/node.json and run ` +
            `\`outpost daemon --config /etc/outpost/node.json\`:\n             ${JSON.stringify(deployment.config)}`,
        );
      } catch (err) {
        this.line("skipped", `${label}: ${errorText(err)}`);
      }
    }
  }

  private async importEggs(): Promise<void> {
    const used = new Set(this.source.servers.map((s) => s.eggId));
    for (const egg of this.source.eggs) {
      const label = `egg ${egg.name}`;
      if (!used.has(egg.id)) {
        this.line("skipped", `${label}: no server uses it (the egg itself imports from its file)`);
        continue;
      }
      const before = this.earlier("egg", egg.id);
      if (before) {
        this.templates.set(egg.id, before);
        this.line("kept", `${label}: imported before (template ${before})`);
        continue;
      }
      const converted = importTemplate(egg.document);
      if (!converted.ok) {
        const first = converted.problems[0];
        this.line(
          "skipped",
          `${label}: does not convert (${first ? `${first.path}: ${first.problem}` : "invalid"})`,
        );
        continue;
      }
      const name = await this.templateName(egg);
      if (this.options.apply) {
        await this.services.templates.putLocal(name, egg.document, true);
        await this.record("egg", egg.id, name);
      }
      this.templates.set(egg.id, name);
      this.line("created", `${label} as the template ${name}`);
    }
  }

  private async templateName(egg: SourceEgg): Promise<string> {
    const slug =
      egg.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")
        .slice(0, 80) || "egg";
    const taken = await this.services.templates.get(localRepoId, slug).then(
      () => true,
      () => false,
    );
    return taken ? `${slug}-${egg.uuid.slice(0, 8)}` : slug;
  }

  private async importServers(): Promise<void> {
    for (const server of this.source.servers) {
      const label = `server ${server.name} (${server.uuidShort})`;
      const before = this.earlier("server", server.id);
      if (before) {
        this.servers.set(server.id, before);
        this.line("kept", `${label}: imported before (server ${before})`);
        await claimExtras(this, server, before);
        await importFiles(this, server, before);
        continue;
      }
      const node = this.nodes.get(server.nodeId);
      const template = this.templates.get(server.eggId);
      const owner = this.users.get(server.ownerId);
      if (node === undefined || template === undefined) {
        this.line("skipped", `${label}: its ${node === undefined ? "node" : "egg"} was not brought over`);
        continue;
      }
      const built = serverDefinition(server, this.source, this.options.environment);
      if ("problem" in built) {
        this.line("skipped", `${label}: ${built.problem}`);
        continue;
      }
      const id = await this.idFor(server);
      const ports = await portChoices(this, server, node, built.definition);
      const notes = [...built.notes];
      if (id !== server.uuidShort) notes.push(`its id ${server.uuidShort} is taken here`);
      if (!owner) notes.push("its owner was not brought over");
      const what = `${label} as ${id} on node ${node}${notes.length ? `; ${notes.join("; ")}` : ""}`;
      if (!this.options.apply) {
        this.servers.set(server.id, id);
        this.line("created", what);
        continue;
      }
      try {
        await this.services.servers.create(id, {
          ...built.definition,
          name: server.name,
          node,
          users: owner ? [owner.username] : [],
          ...(ports ? { ports } : {}),
        });
      } catch (err) {
        this.line(
          "skipped",
          `${label}: ${errorText(err)}${node > 0 && !refusedHere(err) ? " (is the node's daemon running? run the import again once it is)" : ""}`,
        );
        continue;
      }
      const limits: { databaseLimit?: number; allocationLimit?: number } = {};
      if (server.databaseLimit !== null) limits.databaseLimit = server.databaseLimit;
      if (server.allocationLimit !== null) limits.allocationLimit = server.allocationLimit;
      if (Object.keys(limits).length) await this.services.serverLimits.set(id, limits);
      this.servers.set(server.id, id);
      await this.record("server", server.id, id);
      this.line("created", what);
      await claimExtras(this, server, id);
      await importFiles(this, server, id);
    }
  }

  /** The source's short id where it is free here, else a new one of the same shape. */
  private async idFor(server: SourceServer): Promise<string> {
    const free = async (id: string) =>
      !(await this.services.db.selectFrom("servers").select("id").where("id", "=", id).executeTakeFirst());
    if (serverIdPattern.test(server.uuidShort) && (await free(server.uuidShort))) return server.uuidShort;
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (await free(id)) return id;
    }
  }

  private async importSubusers(): Promise<void> {
    for (const sub of this.source.subusers) {
      const user = this.users.get(sub.userId);
      const server = this.servers.get(sub.serverId);
      const label = `subuser ${user?.username ?? sub.userId} on ${server ?? sub.serverId}`;
      if (!user || !server) {
        this.line("skipped", `${label}: the ${user ? "server" : "user"} was not brought over`);
        continue;
      }
      if (this.earlier("subuser", sub.id)) {
        this.line("kept", `${label}: imported before`);
        continue;
      }
      const mapped = mapPermissions(sub.permissions);
      const unmatched = mapped.unmatched.length ? `; not given: ${mapped.unmatched.join(", ")}` : "";
      if (this.options.apply) {
        await this.services.permissions.grant(user.id, server, mapped.scopes);
        await this.record("subuser", sub.id, `${user.id}@${server}`);
      }
      this.line("created", `${label} with ${mapped.scopes.join(" ")}${unmatched}`);
    }
  }

  private async importSchedules(): Promise<void> {
    for (const schedule of this.source.schedules) {
      const server = this.servers.get(schedule.serverId);
      const label = `schedule "${schedule.name}" of ${server ?? schedule.serverId}`;
      if (!server) {
        this.line("skipped", `${label}: its server was not brought over`);
        continue;
      }
      if (this.earlier("schedule", schedule.id)) {
        this.line("kept", `${label}: imported before`);
        continue;
      }
      const { task, notes } = taskOfSchedule(schedule);
      const what = `${label} as a task (${task.cronSchedule}, ${task.operations.length} steps)${notes.length ? `; ${notes.join("; ")}` : ""}`;
      const source = this.source.servers.find((s) => s.id === schedule.serverId) as SourceServer;
      const owner = this.users.get(source.ownerId);
      if (!owner) {
        this.line(
          "skipped",
          `${label}: a task runs with its author's rights, and the server's owner was not brought over`,
        );
        continue;
      }
      if (!this.options.apply) {
        this.line("created", what);
        continue;
      }
      try {
        const held = await this.services.permissions.scopesOn(owner.id, server);
        const made = await this.services.tasks.create(server, task, { userId: owner.id, held });
        await this.record("schedule", schedule.id, `${server}/${made.id}`);
        this.line("created", what);
      } catch (err) {
        this.line(
          "skipped",
          `${label}: ${errorText(err)} (the owner ${owner.username} authors it and lacks that right)`,
        );
      }
    }
  }
}
