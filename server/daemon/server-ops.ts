import type {
  ConsoleView,
  FlagsView,
  NodeServers,
  ServerAction,
  ServerDataView,
  ServerStatusView,
  SocketChannel,
  SocketMessage,
  StatsView,
} from "../contract/node/server-wire.ts";
import type { ServerLimits, Template, VariableValue } from "../templates/index.ts";
import type { ConsoleChunk } from "./runtime/console-buffer.ts";
import type { ProcessStats } from "./runtime/tree-stats.ts";
import type { ManagedServer } from "./servers/managed-server.ts";
import type { ServerStore } from "./servers/server-store.ts";
import { StatsTicker } from "./stats-ticker.ts";

export const statsIntervalMs = 5000;

/**
 * The node's answers about its servers, in the seam's shapes. LocalNode calls
 * this in-process; the daemon's HTTP API calls the same, so both paths share
 * one behaviour (wait semantics, base64 console, stats cadence).
 */
export class ServerOps implements NodeServers {
  /** One frame per console chunk, shared by every subscriber (encoded once, not once per socket). */
  private readonly consoleFrames = new WeakMap<ConsoleChunk, SocketMessage>();

  /** Each watched server's stats timer, one per server for all its sockets. */
  private readonly statsTickers = new WeakMap<ManagedServer, StatsTicker>();

  /** Each server's last CPU/memory sample, which the live stats and the resource history share. */
  private readonly lastSamples = new WeakMap<ManagedServer, { at: number; stats: Promise<ProcessStats> }>();

  constructor(private readonly store: ServerStore) {}

  /**
   * A sample at most `maxAgeMs` old, else a new one: the live stats' ticker
   * and the history's rounds read /proc once between them, not once each.
   */
  recentStats(server: ManagedServer, maxAgeMs: number): Promise<ProcessStats> {
    const last = this.lastSamples.get(server);
    if (last && Date.now() - last.at < maxAgeMs) return last.stats;
    const stats = server.instance.sampleStats();
    const entry = { at: Date.now(), stats };
    this.lastSamples.set(server, entry);
    stats.catch(() => {
      if (this.lastSamples.get(server) === entry) this.lastSamples.delete(server);
    });
    return stats;
  }

  private watchStats(server: ManagedServer, watcher: (message: SocketMessage) => void): () => void {
    let ticker = this.statsTickers.get(server);
    if (!ticker) {
      // The disk figure is the watcher's last measurement: a stats tick never runs du itself.
      ticker = new StatsTicker(async () => {
        const disk = server.disk.lastMeasured;
        return {
          ...(await this.recentStats(server, statsIntervalMs / 2)),
          ...(disk === undefined ? {} : { disk }),
        };
      }, statsIntervalMs);
      this.statsTickers.set(server, ticker);
    }
    return ticker.watch(watcher);
  }

  private consoleFrame(chunk: ConsoleChunk): SocketMessage {
    let frame = this.consoleFrames.get(chunk);
    if (!frame) {
      frame = { type: "console", data: { epoch: 0, logs: chunk.data.toString("base64") } };
      this.consoleFrames.set(chunk, frame);
    }
    return frame;
  }

  async createServer(id: string, definition: unknown): Promise<void> {
    await this.store.create(id, definition);
  }

  deleteServer(id: string): Promise<void> {
    return this.store.delete(id);
  }

  async definition(id: string): Promise<Template> {
    return this.store.get(id).definition;
  }

  replaceDefinition(id: string, definition: unknown): Promise<void> {
    return this.store.replaceDefinition(id, definition);
  }

  async serverData(id: string, all: boolean): Promise<ServerDataView> {
    const { definition } = this.store.get(id);
    const data = Object.fromEntries(Object.entries(definition.data).filter(([, v]) => all || v.userEdit));
    const view: ServerDataView = { data, groups: definition.groups ?? [] };
    const rules = Object.entries(definition.egg?.rules ?? {}).filter(([name]) => name in data);
    if (rules.length) view.rules = Object.fromEntries(rules);
    return view;
  }

  setServerData(id: string, values: Record<string, VariableValue>, onlyUserEditable: boolean): Promise<void> {
    return this.store.get(id).setValues(values, onlyUserEditable);
  }

  async flags(id: string): Promise<FlagsView> {
    return this.store.get(id).flags();
  }

  setFlags(id: string, flags: Partial<FlagsView>): Promise<void> {
    return this.store.get(id).setFlags(flags);
  }

  /** Start resolves once spawned; with `wait`, stop and install resolve when done (reference §5.7). */
  async action(id: string, action: ServerAction, wait: boolean): Promise<void> {
    if (action === "reload") return this.store.reload(id);
    const server = this.store.get(id);
    if (action === "start") return server.start();
    if (action === "kill") return server.instance.kill();
    if (action === "stop") return server.instance.stop(wait);
    // Refused here, not only in the background: the caller gets the answer.
    server.assertCanRun();
    const installing = server.install();
    if (wait) return installing;
    installing.catch(() => {}); // reported on the console
  }

  async console(id: string, since: number): Promise<ConsoleView> {
    const { epoch, logs } = this.store.get(id).instance.console.since(since);
    return { epoch, logs: logs.toString("base64") };
  }

  async sendConsole(id: string, line: string): Promise<void> {
    this.store.get(id).instance.sendCommand(line);
  }

  async stats(id: string): Promise<StatsView> {
    const server = this.store.get(id);
    return { ...(await server.instance.sampleStats()), limits: server.limits() };
  }

  /** The limits in force, the node's defaults filled in (the live stream sends them with each status). */
  limits(id: string): ServerLimits {
    return this.store.get(id).limits();
  }

  async status(id: string): Promise<ServerStatusView> {
    return this.store.get(id).status();
  }

  async subscribe(
    id: string,
    channels: readonly SocketChannel[],
    onMessage: (message: SocketMessage) => void,
    _onEnd: () => void,
  ): Promise<() => void> {
    const server = this.store.get(id);
    const stopEvents = server.subscribe((event) => {
      if (event.type === "console" && channels.includes("console")) {
        onMessage(this.consoleFrame(event.chunk));
      } else if (event.type === "status" && channels.includes("status")) {
        onMessage({ type: "status", data: event.status });
      }
    });
    const stopStats = channels.includes("stats") ? this.watchStats(server, onMessage) : () => {};
    if (channels.includes("status")) onMessage({ type: "status", data: server.status() });
    return () => {
      stopEvents();
      stopStats();
    };
  }
}
