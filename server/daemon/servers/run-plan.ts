import path from "node:path";
import { type ApiError, errorText } from "../../errors.ts";
import {
  type DockerEnvironment,
  portVariables,
  renderEnvironmentVars,
  renderRun,
  replaceTokens,
  type ServerContext,
  type ServerLimits,
  type Template,
  tokenValues,
} from "../../templates/index.ts";
import { type ContainerInput, defaultContainerRoot } from "../docker/container-spec.ts";
import { type DockerRunner, defaultImage, dockerNotSupported } from "../docker/docker-runner.ts";
import type { CgroupDriver, ResolvedLimits, ServerCgroup } from "../runtime/cgroups/index.ts";
import { type Isolation, loopbackOpen, sandboxUnavailable } from "../runtime/host-sandbox.ts";
import type { RunPlan, ServerInstance } from "../runtime/instance.ts";
import type { LoopbackGuard } from "../runtime/loopback-guard.ts";
import type { SpawnSpec } from "../runtime/process-group.ts";
import type { Sandbox } from "../sandbox/index.ts";
import { processEnvironment } from "./host.ts";
import { type Owner, runsAsRoot } from "./server-owner.ts";
import type { UidBlock } from "./uid-blocks.ts";

/**
 * How a host server's processes run: in the sandbox (with the folders shared
 * read-only with every server), unconfined because the administrator chose it
 * (OUTPOST_UNSANDBOXED=allow), or not at all, and why.
 */
export type Confinement =
  | { mode: "sandbox"; readOnly: string[]; allowNestedUserns?: boolean }
  | { mode: "unconfined" }
  | {
      mode: "refused";
      reason: string /** Refused because the loopback stays open, not for want of a sandbox. */;
      loopback?: boolean;
    };

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
  /** On a root node: keeps servers off the host's loopback but for their own ports. */
  loopback?: LoopbackGuard;
}

/** What of a server decides how its processes run (a ManagedServer). */
export interface RunSubject {
  readonly id: string;
  readonly root: string;
  readonly definition: Template;
  readonly sandbox: Sandbox;
  readonly instance: ServerInstance;
  readonly host: NodeHost;
  readonly owner?: Owner;
  readonly docker?: DockerRunner;
}

/**
 * A host server's processes (its run and its install, pre and post steps)
 * run only in the sandbox, or where the administrator allowed running them
 * unconfined, and then never as root. A docker server has its container.
 */
/** The answer to a start or install a node refuses: what is missing, and how to fix it. */
export const refusal = (confinement: { reason: string; loopback?: boolean }): ApiError =>
  confinement.loopback ? loopbackOpen(confinement.reason) : sandboxUnavailable(confinement.reason);

export function assertCanRun(server: RunSubject): void {
  if (server.definition.environment.type === "docker") return;
  const confinement = server.host.confinement;
  if (!confinement) throw sandboxUnavailable("the node has not checked for one yet");
  if (confinement.mode === "refused") throw refusal(confinement);
  if (runsAsRoot() && !server.owner) throw sandboxUnavailable("the server has no uid of its own");
}

/** The limits in force: the definition's, each missing one from the node's defaults. */
export function limitsOf(server: RunSubject): ServerLimits {
  return { ...server.host.defaultLimits, ...server.definition.limits };
}

/** How this server's processes are confined; undefined on a node that cannot sandbox. */
export function isolationOf(server: RunSubject): Isolation | undefined {
  const confinement = server.host.confinement;
  if (confinement?.mode !== "sandbox") return undefined;
  const { readOnly, allowNestedUserns } = confinement;
  return { root: server.root, readOnly, allowNestedUserns, uid: server.owner?.uid, gid: server.owner?.gid };
}

/** Unconfined by choice on a root node: the server's own uid all the same. */
export function runAsOf(server: RunSubject): SpawnSpec["runAs"] {
  if (server.host.confinement?.mode !== "unconfined" || !server.owner) return undefined;
  return { root: server.root, uid: server.owner.uid, gid: server.owner.gid };
}

export function dockerRunnerOf(server: RunSubject): DockerRunner {
  if (!server.docker) throw dockerNotSupported();
  return server.docker;
}

/** What a container of this server is made of, for a given moment (variables as they are then). */
export function containerInput(server: RunSubject, ctx: ServerContext): ContainerInput {
  const environment = server.definition.environment as DockerEnvironment;
  const tokens = tokenValues(ctx);
  return {
    serverId: server.id,
    root: server.root,
    environment,
    image: replaceTokens(environment.image || defaultImage, tokens),
    argv: [],
    // The node's own environment stays on the node: the container gets the definition's variables.
    env: {
      HOME: environment.containerRoot || defaultContainerRoot,
      TERM: "xterm-256color",
      ...renderEnvironmentVars(server.definition.run, tokens),
    },
    limits: limitsOf(server),
  };
}

/** How one start runs the server: in its container, or as a process (group) on this host. */
export async function runPlan(server: RunSubject, ctx: ServerContext): Promise<RunPlan> {
  const run = renderRun(server.definition.run, ctx);
  if (server.definition.environment.type === "docker") {
    const docker = dockerRunnerOf(server);
    const input = { ...containerInput(server, ctx), argv: run.argv, workingDirectory: run.workingDirectory };
    return {
      argv: run.argv,
      cwd: server.root,
      env: input.env,
      stopText: run.stopText,
      stopSignal: run.stopSignal,
      expectedExitCode: run.expectedExitCode,
      autorecover: run.autorecover,
      autorestart: run.autorestart,
      launch: (onOutput) => docker.launch(input, onOutput),
    };
  }
  // Its own ports stay reachable on loopback (a proxy in front of its game, a query of itself).
  if (server.host.loopback && server.owner)
    await server.host.loopback.allow(server.owner.uid, ownPorts(server));
  const cwd = run.workingDirectory ? (await server.sandbox.resolve(run.workingDirectory)).path : server.root;
  const argv = [...run.argv];
  // A relative program path names a file in the server folder (./server.sh), as the reference runs it.
  if (argv[0].startsWith("./")) argv[0] = path.join(cwd, argv[0]);
  return {
    argv,
    cwd,
    env: processEnvironment(server.root, run.environmentVars, server.host.binariesDir),
    isolation: isolationOf(server),
    runAs: runAsOf(server),
    cgroup: await cgroupFor(server),
    memoryLimitMiB: limitsOf(server).memoryMiB,
    stopText: run.stopText,
    stopSignal: run.stopSignal,
    expectedExitCode: run.expectedExitCode,
    autorecover: run.autorecover,
    autorestart: run.autorestart,
  };
}

/** The ports of a server's port variables (port-variables.ts), as they are now. */
function ownPorts(server: RunSubject): number[] {
  const data = server.definition.data ?? {};
  return portVariables(data)
    .map((name) => Number(data[name]?.value))
    .filter((port) => Number.isInteger(port) && port > 0 && port < 65536);
}

/** A fresh cgroup for one run with the server's limits; none on a node without cgroups. */
async function cgroupFor(server: RunSubject): Promise<ServerCgroup | undefined> {
  const cgroups = server.host.cgroups;
  if (!cgroups) return undefined;
  const limits = limitsOf(server);
  try {
    return await cgroups.driver.create(`${cgroups.prefix}-${server.id}`, resolvedLimits(limits));
  } catch (error) {
    // Never run without the limits: the start is refused, and its console says why.
    server.instance.notice("limitsFailed", { reason: errorText(error) });
    throw error;
  }
}

const mib = 1024 * 1024;

/** A definition's limits as the cgroup drivers take them. */
function resolvedLimits(limits: ServerLimits): ResolvedLimits {
  const swap = limits.swapMiB;
  return {
    memoryBytes: limits.memoryMiB !== undefined ? limits.memoryMiB * mib : undefined,
    swapBytes: swap === "unlimited" ? "max" : swap !== undefined ? swap * mib : undefined,
    pids: limits.pids,
    cpuPercent: limits.cpuPercent,
    ioWeight: limits.ioWeight,
    cpus: limits.cpuThreads,
  };
}
