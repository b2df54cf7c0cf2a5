import type Docker from "dockerode";
import { ApiError } from "../../errors.ts";
import { dockerAnswers } from "../docker-probe.ts";
import type { ServerProcess } from "../runtime/instance.ts";
import { ContainerProcess } from "./container-process.ts";
import { type ContainerInput, containerSpec } from "./container-spec.ts";
import { ensureImage } from "./image-pull.ts";
import { dockerClient } from "./socket.ts";

export const dockerNotSupported = () =>
  new ApiError(400, "ErrDockerNotSupported", "no Docker engine answers on this node");

/** The image the reference uses when a docker environment names none. */
export const defaultImage = "pufferpanel/generic";

/** This node's Docker engine, as the docker environment uses it: is it there, and start a server in it. */
export class DockerRunner {
  readonly docker: Docker;

  constructor(readonly socketPath: string) {
    this.docker = dockerClient(socketPath);
  }

  /** True when the engine answers a ping within a second (what the node's features report). */
  available(): Promise<boolean> {
    return dockerAnswers(this.socketPath);
  }

  /** Pulls the image when missing (progress in the console), then creates and starts the container. */
  async launch(input: ContainerInput, onOutput: (data: Buffer) => void): Promise<ServerProcess> {
    const say = (line: string) => onOutput(Buffer.from(`[DOCKER] ${line}\n`));
    if (!(await this.available())) {
      say("No Docker engine answers on this node");
      throw dockerNotSupported();
    }
    const ignored = (["bindings", "hostConfig", "config"] as const).filter((k) => input.environment[k]);
    if (ignored.length > 0)
      say(`Not applied on this node (they could reach the host): ${ignored.join(", ")}`);
    await ensureImage(this.docker, input.image, say);
    try {
      return await ContainerProcess.start(this.docker, containerSpec(input), onOutput);
    } catch (err) {
      const reason = (err as { json?: { message?: string } }).json?.message ?? (err as Error).message;
      say(`Could not start the container: ${reason}`);
      throw new ApiError(500, "ErrContainerStart", "the container did not start: ${reason}", { reason });
    }
  }
}
