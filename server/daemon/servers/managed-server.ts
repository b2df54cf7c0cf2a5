import fs from "node:fs/promises";
import path from "node:path";
import type { NodeNotice } from "../../contract/node/console-messages.ts";
import { ApiError, errorText } from "../../errors.ts";
import { checkedFetch } from "../../net/public-address.ts";
import {
  ConditionEvaluator,
  checkVariableValue,
  type DockerEnvironment,
  type Operation,
  renderEnvironmentVars,
  renderRun,
  replaceTokens,
  type ServerContext,
  type ServerLimits,
  type Template,
  templateErrors,
  tokenValues,
  userValueNames,
  type VariableValue,
  variableValues,
} from "../../templates/index.ts";
import { type ContainerInput, defaultContainerRoot } from "../docker/container-spec.ts";
import { type DockerRunner, defaultImage, dockerNotSupported } from "../docker/docker-runner.ts";
import { type CommandRunner, processGroupRunner } from "../install/command-runner.ts";
import type { CgroupDriver, ServerCgroup } from "../runtime/cgroups/index.ts";
import { ConsoleBatcher } from "../runtime/console-batch.ts";
import type { ConsoleChunk } from "../runtime/console-buffer.ts";
import { type Isolation, sandboxUnavailable } from "../runtime/host-sandbox.ts";
import {
  type InstanceOptions,
  type InstanceStatus,
  type RunPlan,
  ServerInstance,
} from "../runtime/instance.ts";
import type { SpawnSpec } from "../runtime/process-group.ts";
import { denylistMatcher, ProtectedSandbox, Sandbox } from "../sandbox/index.ts";
import { DiskLedger } from "./disk-ledger.ts";
import { diskLimitReached } from "./disk-quota.ts";
import { applyEggConfigFiles, DoneLineWatcher, runEggInstall } from "./egg-runtime.ts";
import { findBinary, hostPlatform, processEnvironment } from "./host.ts";
import { InstallMarker } from "./install-marker.ts";
import { type Owner, runsAsRoot } from "./server-owner.ts";
import type { UidBlock } from "./uid-blocks.ts";

/** What a runner of install / pre / post steps gets besides the steps. */
export interface StepIo {
  root: string;
  env: Record<string, string>;
  /** Output of the steps and their notices, into the server's console. */
  write(text: string | Buffer): void;
  notice: NodeNotice;
  /** For the `console` step: a line to the running process's input. */
  sendConsole(line: string): void;
  signal: AbortSignal;
  /** Runs a command step's program; by default a process group on this host. */
  runCommand?: CommandRunner;
  /** HTTP for downloads; by default the runner's own (a task's: public addresses only). */
  fetch?: typeof globalThis.fetch;
  /** Where file steps write; by default the server's plain sandbox (a task's: as its users reach it). */
  fileSandbox?: Sandbox;
}

/** Runs steps; answers the values they set through outputVariable. */
export type StepRunner = (
  ops: Operation[],
  ctx: ServerContext,
  io: StepIo,
) => Promise<Record<string, VariableValue> | undefined>;

/**
 * How a host server's processes run: in the sandbox (with the folders shared
 * read-only with every server), unconfined because the administrator chose it
 * (OUTPOST_UNSANDBOXED=allow), or not at all, and why.
 */
export type Confinement =
  | { mode: "sandbox"; readOnly: string[]; allowNestedUserns?: boolean }
  | { mode: "unconfined" }
  | { mode: "refused"; reason: string };

/** What a node offers every server: set once by the engine from what the host can do. */
export interface NodeHost {
  /** Absent until the engine has probed the host: nothing runs then. */
  confinement?: Confinement;
  /** This node's own server uids on a root node (uid-blocks.ts). */
  uidBlock?: UidBlock;
  /** The node's shared programs (javadl's JDKs), first on a server's PATH. */
  binariesDir?: string;
  /** Present when limits are enforced; groups are named `<prefix>-<server id>`. */
  cgroups?: { driver: CgroupDriver; prefix: string };
  /** Limits a server gets where its definition sets none. */
  defaultLimits?: ServerLimits;
}

/**
 * The instance's status plus whether the install steps have run once (false: Start is refused)
 * and, while not, why the last try failed.
 */
export type ManagedStatus = InstanceStatus & {
  installed: boolean;
  starting?: boolean;
  installFailure?: string;
};

/** What tasks may be triggered by (their `event` field). */
export type LifecycleEvent = "started" | "stopped" | "crashed" | "installed" | "backupFailed";

export type ServerEvent =
  | { type: "console"; chunk: ConsoleChunk }
  | { type: "status"; status: ManagedStatus }
  | { type: "lifecycle"; event: LifecycleEvent };

/** Where a run of steps writes: the server's console, or a task run's own output. */
export interface StepOutput {
  write(text: string | Buffer): void;
  notice: NodeNotice;
}

const notInstalled = () =>
  new ApiError(
    409,
    "ErrServerNotInstalled",
    "the server is not installed yet: install it before starting it",
  );

export interface Flags {
  autoStart: boolean;
  autoRestartOnCrash: boolean;
  autoRestartOnGraceful: boolean;
}

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

/** One server on this node: its definition, its folder and its running instance. */
export class ManagedServer {
  readonly id: string;
  definition: Template;
  private readonly runSteps: StepRunner;
  private readonly save: (definition: Template) => Promise<void>;
  private readonly docker?: DockerRunner;
  readonly instance: ServerInstance;
  readonly root: string;
  /** Every path a definition names (working directory, file_exists) is taken inside the folder through it. */
  readonly sandbox: Sandbox;
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  /** Console output goes to watchers in batches of one short window (issue 13 #2). */
  private readonly consoleBatch = new ConsoleBatcher((chunk) => this.emit({ type: "console", chunk }));
  private readonly abort = new AbortController();
  /** The server's own uid/gid (set by the store when the daemon is root). */
  owner?: Owner;
  /** What the node offers its servers (sandbox, cgroups); shared by every server, set by the engine. */
  host: NodeHost = {};
  /** False from creation until the install steps first succeed (kept on disk by the marker). */
  installed = true;
  /** Why the last install failed, while the server is not installed (kept in the marker). */
  installFailure?: string;
  readonly installMarker: InstallMarker;
  /** Its disk use and the limit's shared room (the server's folder and `diskFolders`, its backups). */
  readonly disk: DiskLedger;
  /** Set when the disk watcher has told the running server to stop; a later check still over kills it. */
  private stoppingForDisk = false;
  /** One per run of steps under way (install, pre, post): the disk watcher aborts them past the limit. */
  private readonly stepRuns = new Set<AbortController>();
  private wasRunning = false;

  constructor(options: ManagedServerOptions) {
    const { id, serversDir, diskFolders = () => [] } = options;
    this.id = id;
    this.definition = options.definition;
    this.runSteps = options.runSteps;
    this.save = options.save;
    this.docker = options.docker;
    this.root = path.resolve(serversDir, id);
    this.disk = new DiskLedger(() => ({
      limitMiB: this.limits().diskMiB,
      folders: [this.root, ...diskFolders()],
      // A container's own file system is written outside the folder (its /tmp, say).
      elsewhere:
        this.definition.environment.type === "docker" && this.docker
          ? () => this.dockerRunner().writableBytes(this.id)
          : undefined,
    }));
    this.sandbox = new Sandbox(this.root);
    this.installMarker = new InstallMarker(serversDir, id);
    this.instance = new ServerInstance(
      id,
      {
        plan: async () => this.plan(),
        // Checked at every start, automatic restarts included.
        pre: async () => {
          await this.refuseOverDiskLimit("starting");
          await this.steps(this.definition.run.pre ?? []);
          await applyEggConfigFiles(this.definition, this.sandbox, this.context(), (code, ...args) =>
            this.instance.notice(code, ...args),
          );
        },
        post: (exit) => this.steps(this.definition.run.post ?? [], exit),
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

  private async plan(): Promise<RunPlan> {
    this.assertCanRun();
    const ctx = this.context();
    const run = renderRun(this.definition.run, ctx);
    if (this.definition.environment.type === "docker") {
      const docker = this.dockerRunner();
      const input = { ...this.containerInput(ctx), argv: run.argv, workingDirectory: run.workingDirectory };
      return {
        argv: run.argv,
        cwd: this.root,
        env: input.env,
        stopText: run.stopText,
        stopSignal: run.stopSignal,
        expectedExitCode: run.expectedExitCode,
        autorecover: run.autorecover,
        autorestart: run.autorestart,
        launch: (onOutput) => docker.launch(input, onOutput),
      };
    }
    const cwd = run.workingDirectory ? (await this.sandbox.resolve(run.workingDirectory)).path : this.root;
    const argv = [...run.argv];
    // A relative program path names a file in the server folder (./server.sh), as the reference runs it.
    if (argv[0].startsWith("./")) argv[0] = path.join(cwd, argv[0]);
    return {
      argv,
      cwd,
      env: processEnvironment(this.root, run.environmentVars, this.host.binariesDir),
      isolation: this.isolation(),
      runAs: this.runAs(),
      cgroup: await this.cgroup(),
      memoryLimitMiB: this.limits().memoryMiB,
      stopText: run.stopText,
      stopSignal: run.stopSignal,
      expectedExitCode: run.expectedExitCode,
      autorecover: run.autorecover,
      autorestart: run.autorestart,
    };
  }

  /** How this server's processes are confined; undefined on a node that cannot sandbox. */
  isolation(): Isolation | undefined {
    const confinement = this.host.confinement;
    if (confinement?.mode !== "sandbox") return undefined;
    const { readOnly, allowNestedUserns } = confinement;
    return { root: this.root, readOnly, allowNestedUserns, uid: this.owner?.uid, gid: this.owner?.gid };
  }

  /** Unconfined by choice on a root node: the server's own uid all the same. */
  private runAs(): SpawnSpec["runAs"] {
    if (this.host.confinement?.mode !== "unconfined" || !this.owner) return undefined;
    return { root: this.root, uid: this.owner.uid, gid: this.owner.gid };
  }

  /**
   * A host server's processes (its run and its install, pre and post steps)
   * run only in the sandbox, or where the administrator allowed running them
   * unconfined, and then never as root. A docker server has its container.
   */
  assertCanRun(): void {
    if (this.definition.environment.type === "docker") return;
    const confinement = this.host.confinement;
    if (!confinement) throw sandboxUnavailable("the node has not checked for one yet");
    if (confinement.mode === "refused") throw sandboxUnavailable(confinement.reason);
    if (runsAsRoot() && !this.owner) throw sandboxUnavailable("the server has no uid of its own");
  }

  /** The limits in force: the definition's, each missing one from the node's defaults. */
  limits(): ServerLimits {
    return { ...this.host.defaultLimits, ...this.definition.limits };
  }

  /** A fresh cgroup for one run with the server's limits; none on a node without cgroups. */
  private async cgroup(): Promise<ServerCgroup | undefined> {
    const cgroups = this.host.cgroups;
    if (!cgroups) return undefined;
    const limits = this.limits();
    try {
      return await cgroups.driver.create(`${cgroups.prefix}-${this.id}`, {
        memoryBytes: limits.memoryMiB !== undefined ? limits.memoryMiB * 1024 * 1024 : undefined,
        pids: limits.pids,
        cpuPercent: limits.cpuPercent,
      });
    } catch (error) {
      // Never run without the limits: the start is refused, and its console says why.
      this.instance.notice("limitsFailed", { reason: errorText(error) });
      throw error;
    }
  }

  private dockerRunner(): DockerRunner {
    if (!this.docker) throw dockerNotSupported();
    return this.docker;
  }

  /** What a container of this server is made of, for a given moment (variables as they are then). */
  private containerInput(ctx: ServerContext): ContainerInput {
    const environment = this.definition.environment as DockerEnvironment;
    const tokens = tokenValues(ctx);
    return {
      serverId: this.id,
      root: this.root,
      environment,
      image: replaceTokens(environment.image || defaultImage, tokens),
      argv: [],
      // The node's own environment stays on the node: the container gets the definition's variables.
      env: {
        HOME: environment.containerRoot || defaultContainerRoot,
        TERM: "xterm-256color",
        ...renderEnvironmentVars(this.definition.run, tokens),
      },
      limits: this.limits(),
    };
  }

  /**
   * Runs steps with the run section's environment variables; values they
   * output are kept in the server's data. Each run can be aborted on its own
   * (the disk watcher does, past the limit), and all of them at close.
   */
  private async steps(
    ops: Operation[],
    exit?: ServerContext["exit"],
    output?: StepOutput,
    signal?: AbortSignal,
    /** A task's: its downloads and files as its author reaches them (runTaskSteps). */
    asUser?: Pick<StepIo, "fetch" | "fileSandbox">,
  ): Promise<void> {
    if (ops.length === 0) return;
    this.assertCanRun();
    const ctx = this.context(exit);
    // A docker server's commands run in its image, as the reference runs them (templates.md §6).
    // A host server's run in its sandbox, as the server itself.
    const runCommand: CommandRunner =
      this.definition.environment.type === "docker"
        ? (spec) => this.dockerRunner().runCommand(this.containerInput(ctx), spec)
        : (spec) => processGroupRunner({ ...spec, isolation: this.isolation(), runAs: this.runAs() });
    const run = new AbortController();
    this.stepRuns.add(run);
    try {
      const outputs = await this.runSteps(ops, ctx, {
        runCommand,
        root: this.root,
        env: processEnvironment(this.root, renderEnvironmentVars(this.definition.run, tokenValues(ctx))),
        write: output ? (text) => output.write(text) : (text) => this.instance.console.write(text),
        notice: output ? output.notice.bind(output) : (code, ...args) => this.instance.notice(code, ...args),
        sendConsole: (line) => this.instance.sendCommand(line),
        ...asUser,
        signal: AbortSignal.any([this.abort.signal, run.signal, ...(signal ? [signal] : [])]),
      });
      if (outputs && Object.keys(outputs).length > 0) await this.keepOutputs(outputs);
    } catch (error) {
      // Stopped for a reason of the node's (the disk limit): that reason is the error, not "cancelled".
      throw run.signal.reason instanceof ApiError ? run.signal.reason : error;
    } finally {
      this.stepRuns.delete(run);
    }
  }

  /**
   * A task's template operations: run as install steps are, their output to the task's run.
   * Their downloads reach public addresses only: a task's URL is its author's choice, and
   * server.files.edit must not make the node fetch from loopback, private networks or cloud metadata.
   * Their files are written as the server's users write them (an egg's file_denylist, a move's hold).
   */
  runTaskSteps(ops: Operation[], output: StepOutput, signal: AbortSignal): Promise<void> {
    return this.steps(ops, undefined, output, signal, { fetch: checkedFetch, fileSandbox: this.userFiles });
  }

  /** A step's outputVariable (e.g. a resolved Forge version) becomes a variable later steps and the run command see. */
  private async keepOutputs(outputs: Record<string, VariableValue>): Promise<void> {
    const data = { ...this.definition.data };
    for (const [name, value] of Object.entries(outputs)) {
      data[name] = { ...(data[name] ?? { type: "string", display: name, internal: true }), value };
    }
    await this.replace({ ...this.definition, data });
  }

  async install(): Promise<void> {
    this.refuseIfCannotRun();
    await fs.mkdir(this.root, { recursive: true });
    await this.instance.install(async () => {
      try {
        // Installing over the limit would let each try add to it before the watcher cancels it.
        await this.refuseOverDiskLimit("installing");
        await this.steps(this.definition.install ?? []);
        if (this.definition.egg?.install) await this.eggInstall();
        // Inside the install, so the status that ends it already says installed.
        await this.installMarker.clear();
        this.installed = true;
        this.installFailure = undefined;
      } catch (err) {
        // Never installed and this try failed: the panel says "Install failed" with why, not
        // "not installed yet" (a server installed before keeps running its old files). Inside
        // the install too, so the status that ends it says why (alerts read that one frame).
        if (!this.installed) {
          this.installFailure = errorText(err).slice(0, 500);
          await this.installMarker.set(this.installFailure).catch(() => undefined);
        }
        throw err;
      }
    });
    this.announce("installed");
  }

  /** An egg's install script, in a container of its own image (egg-runtime.ts). */
  private async eggInstall(): Promise<void> {
    const run = new AbortController();
    this.stepRuns.add(run);
    try {
      await runEggInstall(this.definition, this.dockerRunner(), this.containerInput(this.context()), {
        write: (data) => this.instance.console.write(data),
        notice: (code, ...args) => this.instance.notice(code, ...args),
        signal: AbortSignal.any([this.abort.signal, run.signal]),
      });
    } finally {
      this.stepRuns.delete(run);
    }
  }

  /** Starts the server; one never installed is refused with a clear error instead of failing to run. */
  async start(): Promise<void> {
    this.refuseIfCannotRun();
    if (!this.installed) throw notInstalled();
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

  /** A server whose folders hold more than its disk limit neither starts nor installs (until files are deleted). */
  private async refuseOverDiskLimit(action: "starting" | "installing"): Promise<void> {
    this.stoppingForDisk = false;
    const limitMiB = await this.disk.overLimit();
    if (limitMiB === undefined) return;
    this.instance.notice(action === "starting" ? "diskNotStarting" : "diskNotInstalling", {
      limit: limitMiB,
    });
    throw diskLimitReached(limitMiB);
  }

  /**
   * The disk watcher found the running server over its limit: it is told to
   * stop as by the stop action (killed after the grace period); if a later
   * check finds it still running and still over, it is killed then, so a
   * process that ignores the stop cannot go on writing for the whole grace.
   */
  overDiskLimit(limitMiB: number): void {
    // Install steps are as much the server's writing as its process (a definition's commands).
    const steps = [...this.stepRuns].filter((run) => !run.signal.aborted);
    if (steps.length > 0) {
      this.instance.notice("diskStoppingSteps", { limit: limitMiB });
      for (const run of steps) run.abort(diskLimitReached(limitMiB));
    }
    if (!this.instance.status().running) return;
    if (this.stoppingForDisk) {
      this.instance.notice("diskKilling", { limit: limitMiB });
      void this.instance.kill().catch(() => {});
      return;
    }
    this.stoppingForDisk = true;
    this.instance.notice("diskStopping", { limit: limitMiB });
    void this.instance.stop().catch(() => {});
  }

  /** Whether anything of the server's own may be writing to its folder now: its process, or its steps. */
  writing(): boolean {
    return this.instance.status().running || this.stepRuns.size > 0;
  }

  async uninstall(): Promise<void> {
    await this.steps(this.definition.uninstall ?? []).catch((err) =>
      this.instance.notice("uninstallFailed", { reason: errorText(err) }),
    );
  }

  flags(): Flags {
    const run = this.definition.run;
    return {
      autoStart: run.autostart ?? false,
      autoRestartOnCrash: run.autorecover ?? false,
      autoRestartOnGraceful: run.autorestart ?? false,
    };
  }

  async setFlags(flags: Partial<Flags>): Promise<void> {
    const run = { ...this.definition.run };
    if (flags.autoStart !== undefined) run.autostart = flags.autoStart;
    if (flags.autoRestartOnCrash !== undefined) run.autorecover = flags.autoRestartOnCrash;
    if (flags.autoRestartOnGraceful !== undefined) run.autorestart = flags.autoRestartOnGraceful;
    await this.replace({ ...this.definition, run });
  }

  /** Sets variable values; `onlyUserEditable` refuses any the user may not change (nothing is written then). */
  async setValues(values: Record<string, VariableValue>, onlyUserEditable: boolean): Promise<void> {
    const data = { ...this.definition.data };
    for (const [name, value] of Object.entries(values)) {
      const variable = data[name];
      if (!variable)
        throw new ApiError(400, "ErrVariableUnknown", "${field} is not a variable of this server", {
          field: name,
        });
      if (onlyUserEditable && !variable.userEdit) {
        throw new ApiError(
          403,
          "ErrVariableNotEditable",
          "${field} may only be changed by an administrator",
          { field: name },
        );
      }
      // Of the variable's type, one of its options, on one line (a user's value stays a value).
      const checked = checkVariableValue(variable, value, this.definition.egg?.rules?.[name]);
      if (!checked.ok) throw templateErrors.variableInvalid(name, checked.problem);
      data[name] = { ...variable, value: checked.value };
    }
    await this.replace({ ...this.definition, data });
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
    const status: ManagedStatus = { ...this.instance.status(), installed: this.installed };
    if (this.doneLine.starting && status.running) status.starting = true;
    if (!this.installed && this.installFailure) status.installFailure = this.installFailure;
    return status;
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.instance.close();
    this.consoleBatch.flush();
  }

  /** Tells watchers (the task scheduler) what happened to the server. */
  announce(event: LifecycleEvent): void {
    this.emit({ type: "lifecycle", event });
  }

  private emit(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
