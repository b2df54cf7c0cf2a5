import fs from "node:fs/promises";
import path from "node:path";
import { ApiError, errorText } from "../../errors.ts";
import { checkedFetch } from "../../net/public-address.ts";
import {
  ConditionEvaluator,
  type Operation,
  type ServerContext,
  type ServerLimits,
  type Template,
  userValueNames,
  type VariableValue,
  variableValues,
} from "../../templates/index.ts";
import type { DockerRunner } from "../docker/docker-runner.ts";
import { ConsoleBatcher } from "../runtime/console-batch.ts";
import type { ConsoleChunk } from "../runtime/console-buffer.ts";
import type { Isolation } from "../runtime/host-sandbox.ts";
import { type InstanceOptions, type InstanceStatus, ServerInstance } from "../runtime/instance.ts";
import { denylistMatcher, ProtectedSandbox, Sandbox } from "../sandbox/index.ts";
import { type Flags, flagsOf, withFlags, withValues } from "./definition-edits.ts";
import { DiskGuard } from "./disk-guard.ts";
import { DiskLedger } from "./disk-ledger.ts";
import { applyEggConfigFiles, DoneLineWatcher } from "./egg-runtime.ts";
import { findBinary, hostPlatform } from "./host.ts";
import { InstallState } from "./install-state.ts";
import { assertCanRun, dockerRunnerOf, isolationOf, limitsOf, type NodeHost, runPlan } from "./run-plan.ts";
import type { Owner } from "./server-owner.ts";
import { type StepOutput, type StepRunner, StepRuns } from "./step-runs.ts";

/**
 * The instance's status plus whether the install steps have run once (false: Start is refused)
 * and, while not, why the last try failed.
 */
export type ManagedStatus = InstanceStatus & {
  installed: boolean;
  starting?: boolean;
  installFailure?: string;
  unresponsive?: boolean;
  unresponsiveStopped?: boolean;
};

/** What tasks may be triggered by (their `event` field). */
export type LifecycleEvent = "started" | "stopped" | "crashed" | "installed" | "backupFailed";

export type ServerEvent =
  | { type: "console"; chunk: ConsoleChunk }
  | { type: "status"; status: ManagedStatus }
  | { type: "lifecycle"; event: LifecycleEvent };

/** What the store gives a server it loads or creates. */
export interface ManagedServerOptions {
  id: string;
  definition: Template;
  /** The node's folder of servers: this one's is `<serversDir>/<id>`. */
  serversDir: string;
  /** Runs its install / pre / post steps. */
  runSteps: StepRunner;
  /** Keeps a changed definition on disk. */
  save(definition: Template): Promise<void>;
  /** How its process is run (ServerInstance's options). */
  instance: InstanceOptions;
  /** This node's Docker engine, for servers in the docker environment. */
  docker?: DockerRunner;
  /** Folders besides its own that count toward its disk limit. */
  diskFolders?: () => string[];
}

/**
 * One server on this node: its definition, its folder and its running instance. How its processes
 * run is run-plan.ts, its steps step-runs.ts, its disk limit disk-guard.ts, its install state
 * install-state.ts; this class ties them to the instance's life and tells watchers.
 */
export class ManagedServer {
  readonly id: string;
  definition: Template;
  private readonly save: (definition: Template) => Promise<void>;
  readonly docker?: DockerRunner;
  readonly instance: ServerInstance;
  readonly root: string;
  /** Every path a definition names (working directory, file_exists) is taken inside the folder through it. */
  readonly sandbox: Sandbox;
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  /** Console output goes to watchers in batches of one short window (issue 13 #2). */
  private readonly consoleBatch = new ConsoleBatcher((chunk) => this.emit({ type: "console", chunk }));
  /** The server's own uid/gid (set by the store when the daemon is root). */
  owner?: Owner;
  /** What the node offers its servers (sandbox, cgroups); shared by every server, set by the engine. */
  host: NodeHost = {};
  /** Whether the install steps have succeeded once (kept on disk by its marker); changed only here. */
  private readonly installState: InstallState;
  /** Its disk use and the limit's shared room (the server's folder and `diskFolders`, its backups). */
  readonly disk: DiskLedger;
  /** The runs of its install, pre and post steps under way: the disk guard aborts them past the limit. */
  private readonly stepRuns: StepRuns;
  private readonly diskGuard: DiskGuard;
  private wasRunning = false;
  /** Set by the hang watchdog when it restarts the server, cleared when its query answers again. */
  unresponsive = false;
  /** Set when the hang watchdog gave up on it and stopped it; cleared when it is started again. */
  unresponsiveStopped = false;

  constructor(options: ManagedServerOptions) {
    const { id, serversDir, diskFolders = () => [] } = options;
    this.id = id;
    this.definition = options.definition;
    this.save = options.save;
    this.docker = options.docker;
    this.root = path.resolve(serversDir, id);
    this.disk = new DiskLedger(() => ({
      limitMiB: this.limits().diskMiB,
      folders: [this.root, ...diskFolders()],
      // A container's own file system is written outside the folder (its /tmp, say).
      elsewhere:
        this.definition.environment.type === "docker" && this.docker
          ? () => dockerRunnerOf(this).writableBytes(this.id)
          : undefined,
    }));
    this.sandbox = new Sandbox(this.root);
    this.installState = new InstallState(serversDir, id);
    this.stepRuns = new StepRuns(this, options.runSteps);
    this.instance = new ServerInstance(
      id,
      {
        plan: async () => {
          assertCanRun(this);
          return runPlan(this, this.context());
        },
        // Checked at every start, automatic restarts included.
        pre: async () => {
          await this.diskGuard.refuseOverLimit("starting");
          await this.stepRuns.run(this.definition.run.pre ?? []);
          await applyEggConfigFiles(this.definition, this.sandbox, this.context(), (code, ...args) =>
            this.instance.notice(code, ...args),
          );
        },
        post: (exit) => this.stepRuns.run(this.definition.run.post ?? [], exit),
        onStatus: (status) => {
          // The output before a status change reaches watchers before it.
          this.consoleBatch.flush();
          // What the process wrote is known only from here, and a container's own layer went with it.
          if (!status.running) this.disk.forget();
          this.doneLine.running(status.running);
          this.emit({ type: "status", status: this.status() });
          if (status.running && !this.wasRunning) this.announce("started");
          this.wasRunning = status.running;
        },
        onExit: ({ success, requested }) => {
          this.announce("stopped");
          if (!success && !requested) this.announce("crashed");
        },
      },
      options.instance,
    );
    this.diskGuard = new DiskGuard(this.instance, this.disk, this.stepRuns);
    this.instance.console.subscribe((chunk) => {
      this.consoleBatch.push(chunk);
      this.doneLine.output(chunk.data);
    });
  }

  private protectedFiles?: { denylist: string; sandbox: Sandbox };
  /** An egg's done line: the server counts as starting until its console shows it. */
  private readonly doneLine = new DoneLineWatcher(
    () => this.definition.egg?.done ?? [],
    () => {
      this.consoleBatch.flush();
      this.emit({ type: "status", status: this.status() });
    },
  );

  /**
   * The folder as the server's users reach it (file manager, SFTP): an egg's file_denylist
   * makes those files refused there; the node's own steps write through `sandbox`.
   */
  get userFiles(): Sandbox {
    const denylist = this.definition.egg?.denylist ?? [];
    const key = denylist.join("\n");
    if (this.protectedFiles?.denylist !== key) {
      const sandbox =
        denylist.length === 0
          ? new Sandbox(this.root)
          : new ProtectedSandbox(this.root, denylistMatcher(denylist));
      sandbox.changesRefused = () => this.refuseChangesWhileHeld();
      this.protectedFiles = { denylist: key, sandbox };
    }
    return this.protectedFiles.sandbox;
  }

  /**
   * While a move to another node holds the server, its files and definition stay as the copy
   * saw them: a change made now would be lost when the old copy is removed.
   */
  refuseChangesWhileHeld(): void {
    if (this.instance.busy === "transfer")
      throw new ApiError(
        409,
        "ErrServerTransferring",
        "the server is being moved to another node: its files cannot be changed until the move ends",
      );
  }

  context(exit?: ServerContext["exit"]): ServerContext {
    return {
      serverId: this.id,
      rootDir: this.root,
      os: hostPlatform.os,
      arch: hostPlatform.arch,
      env: this.definition.environment.type,
      variables: variableValues(this.definition.data),
      userValues: userValueNames(this.definition.data),
      exit,
      conditions: new ConditionEvaluator({
        fileExists: (p) => this.sandbox.existsSync(p),
        inPath: (name) => findBinary(name),
      }),
    };
  }

  /** How this server's processes are confined; undefined on a node that cannot sandbox. */
  isolation(): Isolation | undefined {
    return isolationOf(this);
  }

  /** Whether its processes may run on this node as it is (run-plan.ts); throws why not. */
  assertCanRun(): void {
    assertCanRun(this);
  }

  /** The limits in force: the definition's, each missing one from the node's defaults. */
  limits(): ServerLimits {
    return limitsOf(this);
  }

  /**
   * A task's template operations: run as install steps are, their output to the task's run.
   * Their downloads reach public addresses only: a task's URL is its author's choice, and
   * server.files.edit must not make the node fetch from loopback, private networks or cloud metadata.
   * Their files are written as the server's users write them (an egg's file_denylist, a move's hold).
   */
  runTaskSteps(ops: Operation[], output: StepOutput, signal: AbortSignal): Promise<void> {
    return this.stepRuns.run(ops, undefined, output, signal, {
      fetch: checkedFetch,
      fileSandbox: this.userFiles,
    });
  }

  /** Takes the install state its marker kept (the store loading the server, or adopting a moved one). */
  readInstallState(): Promise<void> {
    return this.installState.read();
  }

  /** A server just created with install steps counts as not installed until they first succeed. */
  async markNotInstalledIfItInstalls(): Promise<void> {
    if ((this.definition.install ?? []).length > 0) await this.installState.require();
  }

  /** Removes the install marker (the store deleting the server). */
  removeInstallState(): Promise<void> {
    return this.installState.remove();
  }

  async install(): Promise<void> {
    this.refuseIfCannotRun();
    await fs.mkdir(this.root, { recursive: true });
    await this.instance.install(async () => {
      try {
        // Installing over the limit would let each try add to it before the watcher cancels it.
        await this.diskGuard.refuseOverLimit("installing");
        await this.stepRuns.run(this.definition.install ?? []);
        if (this.definition.egg?.install) await this.stepRuns.eggInstall();
        // Inside the install, so the status that ends it already says installed.
        await this.installState.succeeded();
      } catch (err) {
        // Inside the install too, so the status that ends it says why (alerts read that one frame).
        await this.installState.failed(err);
        throw err;
      }
    });
    this.announce("installed");
  }

  /** Starts the server; one never installed is refused with a clear error instead of failing to run. */
  async start(): Promise<void> {
    this.refuseIfCannotRun();
    this.installState.assertInstalled();
    this.unresponsiveStopped = false;
    await this.instance.start();
  }

  /** assertCanRun, the refusal also said on the server's console. */
  refuseIfCannotRun(): void {
    try {
      this.assertCanRun();
    } catch (error) {
      this.instance.notice("refused", { reason: errorText(error) });
      throw error;
    }
  }

  /** The disk watcher found the server over its limit (disk-guard.ts). */
  overDiskLimit(limitMiB: number): void {
    this.diskGuard.overLimit(limitMiB);
  }

  /** Whether anything of the server's own may be writing to its folder now: its process, or its steps. */
  writing(): boolean {
    return this.instance.status().running || this.stepRuns.active;
  }

  async uninstall(): Promise<void> {
    await this.stepRuns
      .run(this.definition.uninstall ?? [])
      .catch((err) => this.instance.notice("uninstallFailed", { reason: errorText(err) }));
  }

  flags(): Flags {
    return flagsOf(this.definition);
  }

  async setFlags(flags: Partial<Flags>): Promise<void> {
    await this.replace(withFlags(this.definition, flags));
  }

  /** Sets variable values; `onlyUserEditable` refuses any the user may not change (nothing is written then). */
  async setValues(values: Record<string, VariableValue>, onlyUserEditable: boolean): Promise<void> {
    await this.replace(withValues(this.definition, values, onlyUserEditable));
  }

  async replace(definition: Template): Promise<void> {
    await this.save(definition);
    this.definition = definition;
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): ManagedStatus {
    const status: ManagedStatus = { ...this.instance.status(), installed: this.installState.installed };
    if (this.doneLine.starting && status.running) status.starting = true;
    const failure = this.installState.failure;
    if (failure) status.installFailure = failure;
    if (this.unresponsive) status.unresponsive = true;
    if (this.unresponsiveStopped) status.unresponsiveStopped = true;
    return status;
  }

  async close(): Promise<void> {
    this.stepRuns.close();
    await this.instance.close();
    this.consoleBatch.flush();
  }

  /** The hang watchdog's marks (see `unresponsive`, `unresponsiveStopped`), told to watchers when they change. */
  markUnresponsive(unresponsive: boolean, stopped = false): void {
    if (this.unresponsive === unresponsive && this.unresponsiveStopped === stopped) return;
    this.unresponsive = unresponsive;
    this.unresponsiveStopped = stopped;
    this.emit({ type: "status", status: this.status() });
  }

  /** Tells watchers (the task scheduler) what happened to the server. */
  announce(event: LifecycleEvent): void {
    this.emit({ type: "lifecycle", event });
  }

  private emit(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
