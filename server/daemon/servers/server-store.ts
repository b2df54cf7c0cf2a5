import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { ApiError, errorText } from "../../errors.ts";
import {
  checkRequirements,
  type Template,
  tokenValues,
  userValueNames,
  variableValues,
} from "../../templates/index.ts";
import { type DockerRunner, dockerNotSupported } from "../docker/docker-runner.ts";
import { isTempUpload } from "../files/temp-uploads.ts";
import { defaultInstanceOptions, type InstanceOptions } from "../runtime/instance.ts";
import {
  checkedDefinition,
  checkedValues,
  checkServerId,
  listDefinitionIds,
  loadDefinition,
  removeDefinition,
  saveDefinition,
} from "./definition-file.ts";
import { findBinary, hostPlatform } from "./host.ts";
import { ManagedServer } from "./managed-server.ts";
import type { NodeHost } from "./run-plan.ts";
import { ensureServerOwner } from "./server-owner.ts";
import type { StepRunner } from "./step-runs.ts";

const notFound = (id: string) =>
  new ApiError(404, "ErrServerNotFound", "no server ${id} on this node", { id });

/**
 * The servers of one node: definitions in `<servers>/<id>.json`, files in
 * `<servers>/<id>/`. Loaded at start (autostart honoured), stopped
 * gracefully at close.
 */
export class ServerStore {
  private readonly servers = new Map<string, ManagedServer>();
  /** Run after a server is deleted, to remove what others keep of it (its backups). */
  readonly afterDelete: ((id: string) => Promise<void>)[] = [];
  /** Folders besides its own that count toward a server's disk limit (its backups). */
  readonly diskFolders: ((id: string) => string)[] = [];
  /** What this host offers its servers (sandbox, cgroups, default limits); filled in by the engine. */
  readonly host: NodeHost = {};

  constructor(
    private readonly dir: string,
    private readonly runSteps: StepRunner,
    private readonly options: InstanceOptions = defaultInstanceOptions,
    /** This node's Docker engine; without one the docker environment is refused. */
    private readonly docker?: DockerRunner,
  ) {}

  async load(log: (msg: string) => void = () => {}): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    for (const id of await listDefinitionIds(this.dir)) {
      try {
        const server = this.managed(id, await loadDefinition(this.dir, id));
        await server.readInstallState();
        await fs.mkdir(server.root, { recursive: true });
        server.owner = await ensureServerOwner(this.dir, server.root, this.host.uidBlock);
        this.servers.set(id, server);
      } catch (err) {
        log(`server ${id} not loaded: ${(err as Error).message}`);
      }
    }
    // Uploads cut short by a crash left their temporary files: removed in the background.
    const started = new Date();
    for (const server of this.servers.values()) {
      server.sandbox
        .removeLeftovers(isTempUpload, started)
        .then((n) => n > 0 && log(`server ${server.id}: removed ${n} unfinished upload(s)`))
        .catch((err) => log(`server ${server.id}: unfinished uploads not removed: ${err.message}`));
    }
    for (const server of this.servers.values()) {
      if (server.definition.run.autostart) {
        server.start().catch((err) => server.instance.notice("autostartFailed", { reason: errorText(err) }));
      }
    }
  }

  get(id: string): ManagedServer {
    const server = this.servers.get(id);
    if (!server) throw notFound(id);
    return server;
  }

  ids(): string[] {
    return [...this.servers.keys()];
  }

  list(): ManagedServer[] {
    return [...this.servers.values()];
  }

  /** Creates a server from a definition after checking it can run here (reference §6 requirements). */
  async create(id: string, raw: unknown): Promise<ManagedServer> {
    checkServerId(id);
    if (this.servers.has(id))
      throw new ApiError(409, "ErrServerAlreadyExists", "server ${id} already exists", { id });
    const definition = checkedValues(checkedDefinition(raw));
    await this.checkCanRun(id, definition);
    const server = this.managed(id, definition);
    await fs.mkdir(server.root, { recursive: true });
    server.owner = await ensureServerOwner(this.dir, server.root, this.host.uidBlock);
    // Marked before the definition is written: a crash in between leaves no server that looks installed.
    await server.markNotInstalledIfItInstalls();
    await saveDefinition(this.dir, id, definition);
    this.servers.set(id, server);
    return server;
  }

  /**
   * Takes in a server whose folder a transfer put in place (transfers/transfer-ops.ts): checked
   * as a created one is, given a uid of this node, stopped. Throws without loading it otherwise.
   */
  async adopt(id: string, raw: unknown): Promise<ManagedServer> {
    checkServerId(id);
    if (this.servers.has(id))
      throw new ApiError(409, "ErrServerAlreadyExists", "server ${id} already exists", { id });
    const definition = checkedDefinition(raw);
    await this.checkCanRun(id, definition);
    const server = this.managed(id, definition);
    await server.readInstallState();
    server.owner = await ensureServerOwner(this.dir, server.root, this.host.uidBlock);
    await saveDefinition(this.dir, id, definition);
    this.servers.set(id, server);
    return server;
  }

  async delete(id: string): Promise<void> {
    const server = this.get(id);
    const status = server.status();
    if (status.running || status.installing) {
      throw new ApiError(409, "ErrServerRunning", "stop the server before deleting it");
    }
    if (server.instance.busy === "backup" || server.instance.busy === "restore") {
      throw new ApiError(409, "ErrBackupInProgress", "a backup or restore of this server is in progress");
    }
    await server.uninstall();
    await server.close();
    this.servers.delete(id);
    await removeDefinition(this.dir, id);
    await server.removeInstallState();
    await removeBehind(this.dir, id, server.root);
    for (const hook of this.afterDelete) await hook(id);
  }

  async replaceDefinition(id: string, raw: unknown): Promise<void> {
    const server = this.get(id);
    server.refuseChangesWhileHeld();
    const definition = checkedValues(checkedDefinition(raw));
    await this.checkCanRun(id, definition);
    await server.replace(definition);
  }

  /** Re-reads the definition from disk (POST …/reload). */
  async reload(id: string): Promise<void> {
    const server = this.get(id);
    server.definition = await loadDefinition(this.dir, id);
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.close()));
  }

  /** Requirements (reference §6); for docker, binaries are the image's business but an engine must answer. */
  private async checkCanRun(id: string, definition: Template): Promise<void> {
    const env = definition.environment.type;
    if (env === "docker" && !(await this.docker?.available())) throw dockerNotSupported();
    const failures = checkRequirements(definition.requirements, {
      ...hostPlatform,
      env,
      tokens: tokenValues({
        serverId: id,
        rootDir: path.join(this.dir, id),
        ...hostPlatform,
        env,
        variables: variableValues(definition.data),
        userValues: userValueNames(definition.data),
      }),
      findBinary: (name) => findBinary(name),
    });
    if (failures.length > 0) throw failures[0];
  }

  private managed(id: string, definition: Template): ManagedServer {
    const server = new ManagedServer({
      id,
      definition,
      serversDir: this.dir,
      runSteps: this.runSteps,
      save: (d) => saveDefinition(this.dir, id, d),
      instance: this.options,
      docker: this.docker,
      diskFolders: () => this.diskFolders.map((f) => f(id)),
    });
    server.host = this.host;
    return server;
  }
}

/**
 * A deleted server's folder leaves its name at once (a rename) and is
 * removed behind the answer: a big world takes seconds to delete, and a
 * move's last step waits for it. One a crash left half removed goes at the
 * next start (recoverInterruptedRestores).
 */
async function removeBehind(serversDir: string, id: string, root: string): Promise<void> {
  const away = path.join(serversDir, `.${id}.deleted-${randomBytes(6).toString("hex")}`);
  try {
    await fs.rename(root, away);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  fs.rm(away, { recursive: true, force: true, maxRetries: 5 }).catch(() => {});
}
