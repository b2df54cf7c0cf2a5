import path from "node:path";
import type Docker from "dockerode";
import type { DockerEnvironment, ServerLimits } from "../../templates/index.ts";

/** Every container of this node carries its server's id under this label. */
export const serverLabel = "outpost.server";

/** One container per server, by name, so a leftover from a crashed node is found and replaced. */
export const containerName = (serverId: string) => `outpost-${serverId}`;

/** Where the server folder appears in the container, and its working directory (reference default). */
export const defaultContainerRoot = "/pufferpanel";

export interface ContainerInput {
  serverId: string;
  /** The server folder on this host. */
  root: string;
  environment: DockerEnvironment;
  /** The image with its tokens already replaced. */
  image: string;
  argv: string[];
  /** Only the definition's variables (and HOME, TERM): a container never gets the node's own environment. */
  env: Record<string, string>;
  /** Relative to the server folder, from run.workingDirectory. */
  workingDirectory?: string;
  limits?: ServerLimits;
  /** `uid:gid` the container runs as: the owner of the server folder, so files stay manageable either side. */
  user?: string;
}

const mib = 1024 * 1024;

/** The container's resources from the server's limits; absent limits leave the engine's default (none). */
export function containerResources(limits: ServerLimits = {}): Docker.HostConfig {
  const resources: Docker.HostConfig = {};
  if (limits.memoryMiB) {
    resources.Memory = limits.memoryMiB * mib;
    // Memory and swap together: by default the same as Memory (no swap on top, so the limit is
    // what the server really gets), else the server's swap beside it, or -1 for as much as the host has.
    const swap = limits.swapMiB ?? 0;
    resources.MemorySwap = swap === "unlimited" ? -1 : (limits.memoryMiB + swap) * mib;
  }
  if (limits.pids) resources.PidsLimit = limits.pids;
  if (limits.cpuPercent) resources.NanoCpus = Math.round(limits.cpuPercent * 1e7);
  // Docker's own scale (10–1000); an engine whose kernel has no IO weight drops it with a warning.
  if (limits.ioWeight) resources.BlkioWeight = limits.ioWeight;
  // The engine refuses a container whose threads the host does not have.
  if (limits.cpuThreads) resources.CpusetCpus = limits.cpuThreads;
  return resources;
}

/** `"0.0.0.0:25565:25565/tcp"`, `"25565:25565"`, `"27015/udp"` → Docker's exposed ports and bindings. */
export function portBindings(specs: string[]): {
  ExposedPorts: Record<string, object>;
  PortBindings: Record<string, { HostIp: string; HostPort: string }[]>;
} {
  const ExposedPorts: Record<string, object> = {};
  const PortBindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const spec of specs) {
    const [ports, protocol = "tcp"] = spec.split("/");
    const parts = ports.split(":");
    const containerPort = parts.pop() ?? "";
    const hostPort = parts.pop() ?? containerPort;
    const hostIp = parts.join(":");
    const key = `${containerPort}/${protocol}`;
    ExposedPorts[key] = {};
    PortBindings[key] = [...(PortBindings[key] ?? []), { HostIp: hostIp, HostPort: hostPort }];
  }
  return { ExposedPorts, PortBindings };
}

/**
 * The Engine API's create request for a server (reference §5.1, templates.md
 * §6): the image and command of the definition, the server folder mounted at
 * containerRoot and used as working directory, stdin kept open for the
 * console, the server's limits as the container's resources, network `host`
 * unless the definition names another.
 *
 * Deliberately not taken from the definition: `bindings`, raw `hostConfig`
 * and raw `config`. The reference passes them to the engine as they are, so
 * whoever can edit a definition could mount the host's root or run the
 * container privileged. Capabilities are dropped and privileges cannot be
 * regained, as a game server needs neither.
 */
export function containerSpec(input: ContainerInput): Docker.ContainerCreateOptions {
  const containerRoot = input.environment.containerRoot || defaultContainerRoot;
  const ports = portBindings(input.environment.portBindings ?? []);
  const [entrypoint, ...args] = input.argv;
  return {
    name: containerName(input.serverId),
    Image: input.image,
    // The definition's command is the whole command line, whatever the image's own entrypoint is.
    Entrypoint: [entrypoint],
    Cmd: args,
    Env: Object.entries(input.env).map(([k, v]) => `${k}=${v}`),
    WorkingDir: path.posix.join(containerRoot, input.workingDirectory ?? ""),
    Labels: { ...input.environment.labels, [serverLabel]: input.serverId },
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: false,
    Tty: false,
    ...(input.user ? { User: input.user } : {}),
    ExposedPorts: ports.ExposedPorts,
    HostConfig: {
      Binds: [`${input.root}:${containerRoot}`],
      NetworkMode: input.environment.networkName || "host",
      PortBindings: ports.PortBindings,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      ...containerResources(input.limits),
    },
  };
}
