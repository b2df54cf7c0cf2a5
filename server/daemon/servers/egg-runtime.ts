import type { NodeNotice } from "../../contract/node/console-messages.ts";
import {
  editConfigText,
  loadYaml,
  type ServerContext,
  substituteTokens,
  type Template,
  tokenValues,
} from "../../templates/index.ts";
import type { ContainerInput } from "../docker/container-spec.ts";
import type { DockerRunner } from "../docker/docker-runner.ts";
import type { Sandbox } from "../sandbox/index.ts";

/**
 * What a server made from a Pterodactyl / Pelican egg needs at run time
 * (the template's `egg` object, see templates/egg.ts): its install script,
 * run the way Wings runs it, and its config file edits before each start.
 */

/** Where an egg's install script finds the server folder. */
export const eggInstallRoot = "/mnt/server";
/** A config file bigger than this is no config file: it is left alone. */
const maxConfigBytes = 4 * 1024 * 1024;

/**
 * Runs the egg's install script in a one-off container of its install image,
 * with its entrypoint, the server folder mounted at /mnt/server and the
 * server's variables in its environment. Like every container of the node it
 * runs as the folder's owner with no capabilities: a script that installs
 * system packages (apt) fails here, where Wings runs it as root.
 */
export async function runEggInstall(
  definition: Template,
  docker: DockerRunner,
  server: ContainerInput,
  io: { write(data: Buffer): void; notice: NodeNotice; signal: AbortSignal },
): Promise<void> {
  const install = definition.egg?.install;
  if (!install) return;
  io.notice("eggInstall", { image: install.image });
  const argv = [install.entrypoint, "-c", install.script];
  const exit = await docker.runCommand(
    {
      ...server,
      image: install.image,
      environment: {
        ...(definition.environment as ContainerInput["environment"]),
        containerRoot: eggInstallRoot,
      },
      env: { ...server.env, HOME: eggInstallRoot },
      argv,
    },
    { argv, cwd: server.root, env: {}, onOutput: io.write, signal: io.signal },
  );
  if (exit.code !== 0) {
    throw new Error(`the egg's install script failed (${exit.signal ?? `exit code ${exit.code}`})`);
  }
}

/** Fills the `${}` tokens of a config value; a user's value in it stays on its line (substituteTokens). */
function rendered(value: unknown, ctx: ServerContext, tokens: ReturnType<typeof tokenValues>): unknown {
  if (typeof value === "string") return substituteTokens(value, tokens, "text", ctx.userValues);
  if (Array.isArray(value)) return value.map((item) => rendered(item, ctx, tokens));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rendered(item, ctx, tokens)]));
  }
  return value;
}

/**
 * Applies the egg's `config.files` edits in the server folder (through its
 * sandbox) before a start. A file the edits cannot read (not there for a
 * `file` or `xml` edit, not valid JSON or YAML) is named in the console and
 * skipped, as Wings does, rather than keeping the server from starting.
 */
export async function applyEggConfigFiles(
  definition: Template,
  sandbox: Sandbox,
  ctx: ServerContext,
  notice: NodeNotice,
): Promise<void> {
  const files = definition.egg?.configFiles ?? [];
  if (files.length === 0) return;
  const tokens = tokenValues(ctx);
  for (const { file, parser, find } of files) {
    let before = "";
    if (sandbox.existsSync(file)) {
      const handle = await sandbox.openRead(file);
      try {
        if ((await handle.stat()).size > maxConfigBytes) {
          notice("eggConfigTooBig", { file });
          continue;
        }
        before = await handle.readFile({ encoding: "utf8" });
      } finally {
        await handle.close();
      }
    } else if (parser === "file" || parser === "xml") {
      continue;
    }
    try {
      if (parser === "yaml") await loadYaml();
      const after = editConfigText(parser, before, rendered(find, ctx, tokens) as Record<string, unknown>);
      if (after !== before) await sandbox.writeFile(file, after);
    } catch (error) {
      notice("eggConfigFailed", { file, parser, reason: (error as Error).message });
    }
  }
}

/**
 * An egg's `config.startup.done`: from the process's start until one of these
 * texts appears in its console, the server is starting, not yet running. Output
 * arrives in chunks, so the end of the last one is kept to match across them.
 */
export class DoneLineWatcher {
  private waiting = false;
  private tail = "";

  constructor(
    private readonly lines: () => string[],
    private readonly changed: () => void,
  ) {}

  get starting(): boolean {
    return this.waiting;
  }

  /** The process runs (true) or ended (false). */
  running(running: boolean): void {
    this.waiting = running && this.lines().length > 0;
    this.tail = "";
  }

  output(chunk: string | Buffer): void {
    if (!this.waiting) return;
    const lines = this.lines();
    const text = this.tail + chunk.toString();
    if (lines.some((line) => text.includes(line))) {
      this.waiting = false;
      this.tail = "";
      this.changed();
      return;
    }
    const keep = Math.max(...lines.map((line) => line.length));
    this.tail = text.slice(-keep);
  }
}
