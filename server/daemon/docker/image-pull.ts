import type Docker from "dockerode";
import { nodeLine } from "../../contract/node/console-messages.ts";
import { ApiError } from "../../errors.ts";

/** An image's reference with the `latest` tag Docker assumes when none is given. */
export function withTag(image: string): string {
  const lastPart = image.slice(image.lastIndexOf("/") + 1);
  return lastPart.includes(":") || lastPart.includes("@") ? image : `${image}:latest`;
}

interface PullEvent {
  status?: string;
  id?: string;
  error?: string;
}

/** Makes sure the engine has `image`: nothing to do when it is there, else a pull (see pullImage). */
export async function ensureImage(
  docker: Docker,
  image: string,
  write: (text: string) => void,
): Promise<void> {
  try {
    await docker.getImage(withTag(image)).inspect();
    return;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err;
  }
  await pullImage(docker, image, write);
}

/**
 * Pulls `image` with its progress going to the console (`write` gets whole
 * lines): the engine's own words as `[DOCKER]` lines, one per layer and state
 * (not every byte count), the node's as its coded lines. A pull that fails ends in
 * ErrDockerImageUnavailable with the engine's reason, written to the console
 * too. An abort stops it.
 */
export async function pullImage(
  docker: Docker,
  image: string,
  write: (text: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const ref = withTag(image);
  write(nodeLine("imagePulling", { image: ref }));
  const seen = new Map<string, string>();
  try {
    const stream = (await docker.pull(ref)) as NodeJS.ReadableStream & { destroy(err?: Error): void };
    const abort = () => stream.destroy(new Error("cancelled"));
    signal?.addEventListener("abort", abort, { once: true });
    // An error mid-pull arrives as an event in the stream, not as a stream error.
    let failure: string | undefined;
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (err: Error | null) => (err ? reject(err) : failure ? reject(new Error(failure)) : resolve()),
        (event: PullEvent) => {
          if (event.error) failure = event.error;
          const key = event.id ?? "";
          if (!event.status || seen.get(key) === event.status) return;
          seen.set(key, event.status);
          write(`[DOCKER] ${event.id ? `${event.id}: ${event.status}` : event.status}\n`);
        },
      );
    }).finally(() => signal?.removeEventListener("abort", abort));
  } catch (err) {
    const reason =
      (err as { json?: { message?: string }; message: string }).json?.message ?? (err as Error).message;
    write(nodeLine("imagePullFailed", { image: ref, reason }));
    throw new ApiError(
      502,
      "ErrDockerImageUnavailable",
      "image ${image} is not on this node and could not be pulled: ${reason}",
      { image: ref, reason },
      { cause: err },
    );
  }
  write(nodeLine("imagePulled", { image: ref }));
}
