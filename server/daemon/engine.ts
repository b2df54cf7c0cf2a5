import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NodeFeatures } from "../node-wire/features.ts";
import { ensurePrivateDir } from "../secrets/private-files.ts";
import type { ServerLimits } from "../templates/index.ts";
import { BackupOps } from "./backups/backup-ops.ts";
import { recoverInterruptedRestores } from "./backups/backup-restore.ts";
import { DockerRunner } from "./docker/docker-runner.ts";
import { dockerSocketPath } from "./docker/socket.ts";
import { FileOps } from "./files/file-ops.ts";
import { QueryOps } from "./query/query-ops.ts";
import { detectCgroups } from "./runtime/cgroups.ts";
import { probeSandbox, type SandboxSupport } from "./runtime/host-sandbox.ts";
import type { InstanceOptions } from "./runtime/instance.ts";
import { ServerOps } from "./server-ops.ts";
import { listDefinitionIds } from "./servers/definition-file.ts";
import { DiskWatcher } from "./servers/disk-watcher.ts";
import type { StepRunner } from "./servers/managed-server.ts";
import { firstServerUid, runsAsRoot } from "./servers/server-owner.ts";
import { ServerStore } from "./servers/server-store.ts";
import { SftpSessions } from "./sftp/sftp-sessions.ts";
import { stepRunner } from "./steps.ts";

export interface EngineOptions {
  /** Where this node keeps server files, backups and its keys. */
  dataDir: string;
  version: string;
  /** Runs install / pre / post steps; by default the step executor with this node's folders. */
  runSteps?: StepRunner;
  /** The Docker engine's socket; by default a unix:// DOCKER_HOST or the engine's usual socket. */
  dockerSocket?: string;
  instance?: InstanceOptions;
  /** Limits of servers whose definition sets none (default: defaultLimits). */
  defaultLimits?: ServerLimits;
  /** Milliseconds between disk checks of a running server (default: OUTPOST_DISK_CHECK_SECONDS, else 30 s). */
  diskCheckMs?: number;
}

/** A node's defaults: no cap on memory or CPU, but a process count that keeps a fork bomb small. */
export const defaultLimits: ServerLimits = { pids: 4096 };

const goArch: Record<string, string> = { x64: "amd64", arm64: "arm64", arm: "arm", ia32: "386" };
const goOs: Record<string, string> = { win32: "windows" };

/**
 * The daemon engine: everything that happens on one host. The panel's local
 * node and `outpost daemon` both run one. It knows nothing of the panel,
 * its database or its HTTP API.
 */
export class DaemonEngine {
  readonly servers: ServerStore;
  readonly serverOps: ServerOps;
  readonly fileOps: FileOps;
  readonly backupOps: BackupOps;
  readonly queryOps: QueryOps;
  /** Stops a running server whose files pass its disk limit (what the game writes is held to it here). */
  private diskWatcher?: DiskWatcher;
  /** Whether game processes run sandboxed here; without it the node leaves `sandbox` out of its features. */
  readonly sandbox: SandboxSupport;
  readonly docker: DockerRunner;
  /** SFTP sessions let in by a remote panel's answer, which that panel may end (see panelAuthorizer). */
  readonly sftpSessions = new SftpSessions();

  constructor(readonly options: EngineOptions) {
    // Server files, definitions, backups and the SFTP host key: the node's user only.
    ensurePrivateDir(options.dataDir);
    for (const dir of ["servers", "backups", "cache", "binaries"]) {
      fs.mkdirSync(path.join(options.dataDir, dir), { recursive: true });
    }
    this.docker = new DockerRunner(dockerSocketPath(options.dockerSocket));
    const runSteps =
      options.runSteps ??
      stepRunner({
        binariesDir: path.join(options.dataDir, "binaries"),
        cacheDir: path.join(options.dataDir, "cache"),
        docker: this.docker,
      });
    const serversDir = path.join(options.dataDir, "servers");
    this.servers = new ServerStore(serversDir, runSteps, options.instance, this.docker);
    this.sandbox = probeSandbox(serversDir, runsAsRoot() ? firstServerUid : undefined);
    if (this.sandbox.available) {
      this.servers.host.sandboxing = { readOnly: [path.join(options.dataDir, "binaries")] };
    }
    this.servers.host.defaultLimits = options.defaultLimits ?? defaultLimits;
    this.serverOps = new ServerOps(this.servers);
    this.fileOps = new FileOps(this.servers);
    this.backupOps = new BackupOps(this.servers, path.join(options.dataDir, "backups"));
    this.queryOps = new QueryOps(this.servers);
  }

  /** Loads the node's servers and starts those marked autostart. */
  async start(log?: (msg: string) => void): Promise<void> {
    if (!this.sandbox.available) log?.(`servers run WITHOUT a sandbox: ${this.sandbox.reason}`);
    const cgroups = await detectCgroups();
    if (cgroups.driver) {
      // Named after this node's folder, so two nodes on one host (or parallel tests) never share a group.
      const prefix = `outpost-${createHash("sha256").update(this.options.dataDir).digest("hex").slice(0, 10)}`;
      this.servers.host.cgroups = { driver: cgroups.driver, prefix };
      // Groups a daemon that died left behind (its servers died with it: bwrap --die-with-parent).
      const left = await cgroups.driver.removeLeftovers(prefix).catch((err: Error) => {
        log?.(`leftover cgroups not removed: ${err.message}`);
        return 0;
      });
      if (left > 0) log?.(`removed ${left} cgroup(s) a previous run left`);
    } else {
      log?.(`servers run WITHOUT resource limits: ${cgroups.reason}`);
    }
    for (const line of await recoverInterruptedRestores(path.join(this.options.dataDir, "servers"))) {
      log?.(line);
    }
    await this.docker.removeLeftovers(await listDefinitionIds(path.join(this.options.dataDir, "servers")));
    await this.servers.load(log);
    this.diskWatcher = new DiskWatcher(() => this.servers.list(), this.options.diskCheckMs, log);
    this.diskWatcher.start();
  }

  async features(): Promise<NodeFeatures> {
    const docker = await this.docker.available();
    return {
      features: [
        ...(this.sandbox.available ? ["sandbox"] : []),
        ...(this.servers.host.cgroups ? ["limits"] : []),
        ...(docker ? ["docker"] : []),
      ],
      environments: docker ? ["host", "docker"] : ["host"],
      os: goOs[process.platform] ?? process.platform,
      arch: goArch[os.arch()] ?? os.arch(),
      version: this.options.version,
    };
  }

  /** Stops every server gracefully (each is killed after its grace period). */
  async close(): Promise<void> {
    await this.diskWatcher?.close();
    await this.servers.close();
  }
}
