import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NodeFeatures } from "../contract/node/features.ts";
import { errorText } from "../errors.ts";
import { ensurePrivateDir } from "../secrets/private-files.ts";
import type { ServerLimits } from "../templates/index.ts";
import { BackupOps } from "./backups/backup-ops.ts";
import { recoverInterruptedRestores } from "./backups/backup-restore.ts";
import { DockerRunner } from "./docker/docker-runner.ts";
import { dockerSocketPath } from "./docker/socket.ts";
import { NodeEventLog } from "./events/node-event-log.ts";
import { FileOps } from "./files/file-ops.ts";
import { HistoryOps } from "./history/history-ops.ts";
import { LiveFeeds } from "./live/live-feeds.ts";
import { ModOps } from "./mods/mod-ops.ts";
import { HangWatchdog } from "./query/hang-watchdog.ts";
import { QueryOps } from "./query/query-ops.ts";
import { RconOps } from "./rcon/rcon-ops.ts";
import { detectCgroups, SwapGuard } from "./runtime/cgroups/index.ts";
import { probeSandbox, type SandboxSupport, sandboxUnavailable } from "./runtime/host-sandbox.ts";
import type { InstanceOptions } from "./runtime/instance.ts";
import { installLoopbackGuard, type LoopbackGuardResult } from "./runtime/loopback-guard.ts";
import { ServerOps } from "./server-ops.ts";
import { listDefinitionIds } from "./servers/definition-file.ts";
import { DiskWatcher } from "./servers/disk-watcher.ts";
import { refusal } from "./servers/run-plan.ts";
import { runsAsRoot } from "./servers/server-owner.ts";
import { ServerStore } from "./servers/server-store.ts";
import type { StepRunner } from "./servers/step-runs.ts";
import { nodeUidBlock, type UidBlock } from "./servers/uid-blocks.ts";
import { SftpSessions } from "./sftp/sftp-sessions.ts";
import { stepRunner } from "./steps.ts";
import { defaultTaskRunOptions, type TaskRunOptions } from "./tasks/server-tasks.ts";
import { TaskOps } from "./tasks/task-ops.ts";
import { TransferOps } from "./transfers/transfer-ops.ts";

export interface EngineOptions {
  /** Where this node keeps server files, backups and its keys. */
  dataDir: string;
  version: string;
  /** Runs install / pre / post steps; by default the step executor with this node's folders. */
  runSteps?: StepRunner;
  /** The Docker engine's socket (the config modules fall back to a unix:// DOCKER_HOST's); else the usual one. */
  dockerSocket?: string;
  instance?: InstanceOptions;
  /** Limits of servers whose definition sets none (default: defaultLimits). */
  defaultLimits?: ServerLimits;
  /** Milliseconds between disk checks of a running server (OUTPOST_DISK_CHECK_SECONDS; default 30 s). */
  diskCheckMs?: number;
  /**
   * OUTPOST_UNSANDBOXED=allow: the administrator accepts running host servers
   * unconfined where no sandbox works (still as each server's own uid on a
   * root node). Otherwise such a node refuses to start or install them.
   */
  allowUnsandboxed?: boolean;
  /**
   * OUTPOST_ALLOW_UNLIMITED_SWAP=1: where the kernel refuses a server's swap limit and the host
   * has swap, the administrator accepts servers swapping without bound. Otherwise such a node
   * refuses to start servers with a memory limit.
   */
  allowUnlimitedSwap?: boolean;
  /**
   * OUTPOST_LOOPBACK_OPEN=allow: where a root node cannot close the host's loopback to its servers
   * (no iptables), the administrator accepts servers reaching the panel's ports and the host's
   * loopback services. Otherwise such a node refuses to start or install host servers.
   */
  allowOpenLoopback?: boolean;
  /** The host-wide registry of server uid blocks (uid-blocks.ts); tests may use their own. */
  uidRegistry?: string;
  /** Milliseconds between resource-history samples (OUTPOST_STATS_SAMPLE_SECONDS; default 30 s). */
  statsSampleMs?: number;
  /** How many times its size an archive may unpack to (OUTPOST_EXTRACT_MAX_RATIO; default extract-budget.ts's). */
  extractMaxRatio?: number;
  /** Milliseconds between the hang watchdog's rounds (OUTPOST_WATCHDOG_SECONDS; default 30 s). */
  watchdogMs?: number;
  /** How long a task's run may take (default one hour). */
  tasks?: TaskRunOptions;
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
  /** Live status, stats and limits per watched server (the local node's and GET /daemon/live's). */
  readonly live: LiveFeeds;
  readonly fileOps: FileOps;
  readonly backupOps: BackupOps;
  readonly queryOps: QueryOps;
  readonly rconOps: RconOps;
  readonly modOps: ModOps;
  readonly taskOps: TaskOps;
  readonly historyOps: HistoryOps;
  readonly transferOps: TransferOps;
  /** Stops a running server whose files pass its disk limit (what the game writes is held to it here). */
  private diskWatcher?: DiskWatcher;
  /** Restarts servers whose query stopped answering, where their option asks for it. */
  private readonly watchdog: HangWatchdog;
  /** Whether game processes run sandboxed here; without it the node leaves `sandbox` out of its features. */
  readonly sandbox: SandboxSupport;
  /** This node's server uids, on a root node. */
  readonly uidBlock?: UidBlock;
  /** On a root node: the rule that keeps its servers off the host's loopback, or why there is none. */
  readonly loopback: LoopbackGuardResult;
  readonly docker: DockerRunner;
  /** SFTP sessions let in by a remote panel's answer, which that panel may end (see panelAuthorizer). */
  readonly sftpSessions = new SftpSessions();
  /** What this node tells its panel of its own accord (SFTP writes, task runs), kept for a panel that reconnects. */
  readonly events = new NodeEventLog();

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
        extractMaxRatio: options.extractMaxRatio,
      });
    const serversDir = path.join(options.dataDir, "servers");
    this.servers = new ServerStore(serversDir, runSteps, options.instance, this.docker);
    this.uidBlock = runsAsRoot() ? nodeUidBlock(serversDir, options.uidRegistry) : undefined;
    this.servers.host.uidBlock = this.uidBlock;
    this.servers.host.binariesDir = path.join(options.dataDir, "binaries");
    this.sandbox = probeSandbox(serversDir, this.uidBlock?.first);
    // A node that is not root runs its servers as its own uid: no rule can tell their connections
    // from the node's, so it cannot close the loopback and refuses like a root node without iptables.
    this.loopback = this.uidBlock
      ? installLoopbackGuard(this.uidBlock)
      : {
          reason:
            "the node is not root, so its servers run as its own uid and no firewall rule can tell their connections apart: run the node as root",
        };
    this.servers.host.loopback = this.loopback?.guard;
    const loopbackRefused =
      !this.loopback.guard && !options.allowOpenLoopback ? this.loopback.reason : undefined;
    this.servers.host.confinement = loopbackRefused
      ? { mode: "refused", reason: loopbackRefused, loopback: true }
      : this.sandbox.available
        ? {
            mode: "sandbox",
            readOnly: [path.join(options.dataDir, "binaries")],
            allowNestedUserns: this.sandbox.allowNestedUserns,
          }
        : options.allowUnsandboxed
          ? { mode: "unconfined" }
          : { mode: "refused", reason: this.sandbox.reason ?? "unknown" };
    this.servers.host.defaultLimits = options.defaultLimits ?? defaultLimits;
    this.serverOps = new ServerOps(this.servers);
    this.live = new LiveFeeds(this.serverOps, this.servers);
    this.fileOps = new FileOps(this.servers, options.extractMaxRatio);
    this.backupOps = new BackupOps(
      this.servers,
      path.join(options.dataDir, "backups"),
      path.join(options.dataDir, "backup-target.json"),
    );
    this.queryOps = new QueryOps(this.servers);
    this.rconOps = new RconOps(this.servers);
    this.watchdog = new HangWatchdog(
      () => this.servers.list(),
      (id) => this.queryOps.answers(id),
      options.watchdogMs,
    );
    this.modOps = new ModOps(this.servers);
    this.taskOps = new TaskOps(this.servers, serversDir, this.backupOps, {
      ...defaultTaskRunOptions,
      ...options.tasks,
      // A run is the task's own change: the activity log names the task, not whoever made it.
      onRunEnd: (serverId, taskId, taskName, run) =>
        this.events.activity({
          at: Date.now(),
          serverId,
          actor: { kind: "task", name: taskName, taskId },
          address: "",
          action: "task.run",
          ok: run.success === true,
          subject: `task:${taskId}`,
          details: {
            trigger: run.trigger,
            run: run.id,
            started: run.started,
            ...(run.message ? { message: run.message } : {}),
          },
        }),
    });
    this.historyOps = new HistoryOps(
      {
        servers: this.servers,
        sample: (server, maxAgeMs) => this.serverOps.recentStats(server, maxAgeMs),
        players: async (id) => {
          const view = await this.queryOps.query(id);
          const answer = view && Object.values(view)[0];
          return answer ? answer.numPlayers : null;
        },
      },
      options.dataDir,
      options.statsSampleMs,
    );
    this.transferOps = new TransferOps(
      this.servers,
      serversDir,
      path.join(options.dataDir, "backups"),
      this.taskOps,
    );
  }

  /**
   * Loads the node's servers and starts those marked autostart. `log` takes
   * what needs the operator's attention; `info`, the one line that says how
   * servers are confined when all is well.
   */
  async start(log?: (msg: string) => void, info: (msg: string) => void = log ?? (() => {})): Promise<void> {
    // A swap limit the kernel refuses: the start is refused, or (no swap on the host, or the
    // administrator's opt-in) told once in this node's log.
    const swap = new SwapGuard(
      { allowUnlimited: this.options.allowUnlimitedSwap },
      { warn: (msg) => log?.(msg), info },
    );
    const cgroups = await detectCgroups(swap);
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
    const confinement = this.confinementLine();
    const loopbackOpen = this.loopback && !this.loopback.guard;
    if (this.servers.host.confinement?.mode === "sandbox" && !this.sandbox.allowNestedUserns && !loopbackOpen)
      info(confinement);
    else log?.(confinement);
    for (const line of await recoverInterruptedRestores(path.join(this.options.dataDir, "servers"))) {
      log?.(line);
    }
    await this.docker.removeLeftovers(await listDefinitionIds(path.join(this.options.dataDir, "servers")));
    await this.servers.load(log);
    await this.taskOps.start(log);
    this.diskWatcher = new DiskWatcher(() => this.servers.list(), this.options.diskCheckMs, log);
    this.diskWatcher.start();
    this.watchdog.start();
    await this.historyOps.start(log);
  }

  /** One line for the start-up log: whether servers run sandboxed, and with what. */
  confinementLine(): string {
    const uids = this.uidBlock
      ? `uids ${this.uidBlock.first}-${this.uidBlock.first + this.uidBlock.count - 1}`
      : `the node's own uid ${process.getuid?.()}`;
    const confinement = this.servers.host.confinement;
    const cgroups = this.servers.host.cgroups;
    const limits = cgroups ? `cgroup v${cgroups.driver.version}` : "no resource limits";
    if (confinement?.mode === "refused") {
      return `host servers refused: ${errorText(refusal(confinement))}`;
    }
    const loopback = this.loopbackWords();
    if (confinement?.mode === "sandbox") {
      const userns = this.sandbox.allowNestedUserns
        ? ", nested user namespaces NOT blocked (bubblewrap 0.8.0 or later blocks them)"
        : "";
      return `host servers run sandboxed: ${this.sandbox.version}${userns}, ${uids}, ${limits}, ${loopback}`;
    }
    if (confinement?.mode === "unconfined") {
      return `host servers run WITHOUT a sandbox (OUTPOST_UNSANDBOXED=allow; ${this.sandbox.reason}), as ${uids}, ${limits}, ${loopback}`;
    }
    return `host servers refused: ${errorText(sandboxUnavailable(this.sandbox.reason ?? "unknown"))}`;
  }

  /** Whether servers can reach the host's loopback (the panel's ports), in the start line's words. */
  private loopbackWords(): string {
    if (this.loopback.guard)
      return `host loopback closed to servers but for their own ports (${this.loopback.guard.description})`;
    return `host loopback OPEN to servers (OUTPOST_LOOPBACK_OPEN=allow; ${this.loopback.reason})`;
  }

  async features(): Promise<NodeFeatures> {
    const docker = await this.docker.available();
    const confinement = this.servers.host.confinement;
    return {
      features: [
        ...(this.sandbox.available ? ["sandbox"] : []),
        // Host servers run unconfined by the administrator's choice; without it or sandbox they are refused.
        ...(this.servers.host.confinement?.mode === "unconfined" ? ["unsandboxed"] : []),
        ...(this.servers.host.cgroups ? ["limits"] : []),
        ...(docker ? ["docker"] : []),
      ],
      environments: docker ? ["host", "docker"] : ["host"],
      os: goOs[process.platform] ?? process.platform,
      arch: goArch[os.arch()] ?? os.arch(),
      version: this.options.version,
      ...(this.sandbox.available ? {} : { sandboxReason: this.sandbox.reason }),
      ...(confinement?.mode === "refused" && confinement.loopback
        ? { loopbackReason: confinement.reason }
        : {}),
    };
  }

  /** Stops every server gracefully (each is killed after its grace period). */
  async close(): Promise<void> {
    await this.diskWatcher?.close();
    await this.watchdog.close();
    await this.historyOps.close();
    // Runs under way are recorded as stopped before their servers stop.
    await this.taskOps.close();
    await this.servers.close();
    await this.loopback?.guard?.remove();
  }
}
