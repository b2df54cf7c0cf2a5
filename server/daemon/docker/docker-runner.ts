import fs from "node:fs/promises";
import path from "node:path";
import type Docker from "dockerode";
import { nodeLine } from "../../contract/node/console-messages.ts";
import { ApiError, errorText } from "../../errors.ts";
import { dockerAnswers } from "../docker-probe.ts";
import type { CommandExit, CommandSpec } from "../install/command-runner.ts";
import { cpuThreadsUnavailable } from "../runtime/cgroups/pinning.ts";
import type { ServerProcess } from "../runtime/instance.ts";
import { ContainerProcess } from "./container-process.ts";
import { type ContainerInput, containerName, containerSpec } from "./container-spec.ts";
import { ensureImage, pullImage } from "./image-pull.ts";
import { dockerClient } from "./socket.ts";

export const dockerNotSupported = () =>
  new ApiError(400, "ErrDockerNotSupported", "no Docker engine answers on this node");

/**
 * The container runs as whoever owns the server folder (the node's user, or
 * the server's own uid where the host environment gives it one): what it
 * writes there stays the server's, and with every capability dropped it could
 * not write into a folder of another owner anyway.
 */
async function asFolderOwner(input: ContainerInput): Promise<ContainerInput> {
  const owner = await fs.stat(input.root);
  return { ...input, user: `${owner.uid}:${owner.gid}` };
}

/** The image the reference uses when a docker environment names none. */
export const defaultImage = "pufferpanel/generic";

/** This node's Docker engine, as the docker environment uses it: is it there, and start a server in it. */
export class DockerRunner {
  private client: Promise<Docker> | undefined;

  constructor(readonly socketPath: string) {}

  /** The Engine API client, made on first use. */
  private docker(): Promise<Docker> {
    this.client ??= dockerClient(this.socketPath);
    return this.client;
  }

  /** True when the engine answers a ping within a second (what the node's features report). */
  available(): Promise<boolean> {
    return dockerAnswers(this.socketPath);
  }

  /** Pulls the image when missing (progress in the console), then creates and starts the container. */
  async launch(input: ContainerInput, onOutput: (data: Buffer) => void): Promise<ServerProcess> {
    return this.startContainer(containerSpec(await asFolderOwner(input)), input, onOutput);
  }

  /**
   * Runs one command of a docker server's install, pre or post steps in a
   * container of its own: the server's image, folder, limits and variables,
   * input closed (nothing answers a question during an install), removed
   * when it ends; an abort kills it.
   */
  async runCommand(input: ContainerInput, command: CommandSpec): Promise<CommandExit> {
    const spec = containerSpec({
      ...(await asFolderOwner(input)),
      argv: command.argv,
      workingDirectory: path.relative(input.root, command.cwd),
    });
    spec.name = `${containerName(input.serverId)}-step`;
    spec.OpenStdin = false;
    spec.AttachStdin = false;
    const container = await this.startContainer(spec, input, command.onOutput);
    const kill = () => container.signal("SIGKILL");
    if (command.signal.aborted) kill();
    command.signal.addEventListener("abort", kill, { once: true });
    try {
      return await container.exited;
    } finally {
      command.signal.removeEventListener("abort", kill);
    }
  }

  /**
   * Removes the containers a node that crashed left behind for these
   * servers (it would otherwise run on, unseen, until the server's next
   * start); nothing when the engine does not answer.
   */
  async removeLeftovers(serverIds: string[]): Promise<void> {
    if (!(await this.available())) return;
    for (const id of serverIds) {
      for (const name of [containerName(id), `${containerName(id)}-step`]) {
        await (await this.docker())
          .getContainer(name)
          .remove({ force: true })
          .catch(() => {});
      }
    }
  }

  /**
   * Bytes a server's containers (its own and a step's) hold in their
   * writable layers: written outside the server folder, they count toward
   * its disk limit while the containers live. 0 when there are none.
   */
  async writableBytes(serverId: string): Promise<number> {
    let total = 0;
    for (const name of [containerName(serverId), `${containerName(serverId)}-step`]) {
      const info = await (await this.docker())
        .getContainer(name)
        // The engine's `size` query (its types leave it out); an engine that hangs does not hold the measurement.
        .inspect({ size: true, abortSignal: AbortSignal.timeout(10_000) } as Docker.ContainerInspectOptions)
        .catch(() => undefined);
      total += (info as { SizeRw?: number } | undefined)?.SizeRw ?? 0;
    }
    return total;
  }

  /** The `dockerpull` step: pulls even when the image is there, to get its newest version. */
  async pull(image: string, onOutput: (text: string) => void, signal: AbortSignal): Promise<void> {
    return pullImage(await this.docker(), image, onOutput, signal);
  }

  private async startContainer(
    spec: Docker.ContainerCreateOptions,
    input: ContainerInput,
    onOutput: (data: Buffer) => void,
  ): Promise<ContainerProcess> {
    const say = (text: string) => onOutput(Buffer.from(text));
    if (!(await this.available())) {
      say(nodeLine("noDocker"));
      throw dockerNotSupported();
    }
    const ignored = (["bindings", "hostConfig", "config"] as const).filter((k) => input.environment[k]);
    if (ignored.length > 0) say(nodeLine("dockerIgnored", { settings: ignored.join(", ") }));
    const docker = await this.docker();
    await ensureImage(docker, input.image, say);
    try {
      return await ContainerProcess.start(docker, spec, onOutput);
    } catch (err) {
      if (err instanceof ApiError) {
        // Ours (CPU threads the engine dropped): already what to answer.
        say(nodeLine("limitsFailed", { reason: errorText(err) }));
        throw err;
      }
      const reason = (err as { json?: { message?: string } }).json?.message ?? (err as Error).message;
      say(nodeLine("containerStartFailed", { reason }));
      const cpus = spec.HostConfig?.CpusetCpus;
      // The engine refuses threads the host does not have ("Requested CPUs are not available").
      if (cpus && /cpuset|requested cpus/i.test(reason)) throw cpuThreadsUnavailable(cpus, reason);
      throw new ApiError(
        500,
        "ErrContainerStart",
        "the container did not start: ${reason}",
        { reason },
        { cause: err },
      );
    }
  }
}
