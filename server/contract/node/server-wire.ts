import { type Static, Type } from "typebox";
import type { Template, VariableValue } from "../../templates/index.ts";
import { WireEggRule, WireGroup, WireServerLimits, WireVariable } from "./template-wire.ts";

/** Shapes that cross the panel↔node seam for servers (reference §4, §5.8–§5.10). */

/** A server id in a daemon path. */
export const NodeServerParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** PUT /daemon/server/{id}: the server was made. */
export const ServerCreated = Type.Object({ id: Type.String() });

export const ServerStatusView = Type.Object({
  running: Type.Boolean(),
  installing: Type.Boolean(),
  /** Ours, beside the reference's two: false until the install steps have run once (Start refused). */
  installed: Type.Optional(Type.Boolean()),
  /** Ours: running, but an imported egg's done line has not appeared in its console yet. */
  starting: Type.Optional(Type.Boolean()),
  /** Ours: while not installed, why the last install failed (absent when none was tried). */
  installFailure: Type.Optional(Type.String()),
  /** Ours: stopped because its process crashed (exited unasked, not with the expected code). */
  crashed: Type.Optional(Type.Boolean()),
  /** Ours: the hang watchdog restarted it, and its query has not answered since. */
  unresponsive: Type.Optional(Type.Boolean()),
  /**
   * Ours: it kept hanging — the hang watchdog restarted it `hangRestartCap.restarts` times within
   * `hangRestartCap.minutes` and then stopped it, left stopped until someone starts it.
   */
  unresponsiveStopped: Type.Optional(Type.Boolean()),
});

/** How often the hang watchdog restarts a server before it stops it and leaves it stopped. */
export const hangRestartCap = { restarts: 3, minutes: 10 } as const;
export type ServerStatusView = Static<typeof ServerStatusView>;

export const StatsView = Type.Object({
  cpu: Type.Number(),
  memory: Type.Number(),
  /**
   * Ours, beside the reference's two (GET …/stats only, not the socket's
   * frames): the limits in force, the node's defaults filled in, so a list
   * can show usage against them.
   */
  limits: Type.Optional(WireServerLimits),
  /** Ours: bytes the server's folders held at the node's last disk measurement, when it has one. */
  disk: Type.Optional(Type.Number()),
});
export type StatsView = Static<typeof StatsView>;

/** Console output since a time: `logs` is base64 of the raw bytes, `epoch` in µs. */
export const ConsoleView = Type.Object({ epoch: Type.Number(), logs: Type.String() });
export type ConsoleView = Static<typeof ConsoleView>;

/** GET …/console?time=: output since that time (µs). */
export const ConsoleQuery = Type.Object({ time: Type.Optional(Type.Integer({ minimum: 0 })) });

/** POST …/console: one line for the server's console, as text/plain. */
export const ConsoleLine = Type.String();

export const ServerDataView = Type.Object({
  data: Type.Record(Type.String(), WireVariable),
  groups: Type.Array(WireGroup),
  /** An imported egg's checks of these variables (egg-rules.ts), for the editor to check as the node does. */
  rules: Type.Optional(Type.Record(Type.String(), WireEggRule)),
});
export type ServerDataView = Static<typeof ServerDataView>;

/** GET …/data?all=true: hidden variables too. */
export const ServerDataQuery = Type.Object({ all: Type.Optional(Type.Boolean()) });

/** POST …/data: values to set; only those the server's users may edit when `onlyUserEditable`. */
export const NodeDataBody = Type.Object({
  values: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  onlyUserEditable: Type.Boolean(),
});

const flagFields = {
  autoStart: Type.Boolean(),
  autoRestartOnCrash: Type.Boolean(),
  autoRestartOnGraceful: Type.Boolean(),
  /** Ours (hang watchdog): restart after this many failed queries in a row; absent or 0: off. */
  unresponsiveRestartAfter: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
};
export const FlagsView = Type.Object(flagFields);
export type FlagsView = Static<typeof FlagsView>;
/** POST …/flags: the flags to change. */
export const FlagsBody = Type.Partial(FlagsView);

export type ServerAction = "start" | "stop" | "kill" | "install" | "reload";
export const serverActions: readonly ServerAction[] = ["start", "stop", "kill", "install", "reload"];
export const ServerActionParams = Type.Object({ id: NodeServerParams.properties.id, action: Type.String() });
/** `?wait`: answer once the action is done. */
export const ServerActionQuery = Type.Object({ wait: Type.Optional(Type.String()) });

export type SocketChannel = "console" | "status" | "stats";

/** One socket frame as the browser gets it: `{type, data}`; the stats frame's type is `stat`. */
export const SocketMessage = Type.Union([
  Type.Object({
    type: Type.Literal("console"),
    data: Type.Object({ epoch: Type.Literal(0), logs: Type.String() }),
  }),
  Type.Object({ type: Type.Literal("status"), data: ServerStatusView }),
  Type.Object({ type: Type.Literal("stat"), data: StatsView }),
]);
export type SocketMessage = Static<typeof SocketMessage>;

/** What the panel asks of a node about its servers; LocalNode and RemoteNode both provide it. */
export interface NodeServers {
  createServer(id: string, definition: unknown): Promise<void>;
  deleteServer(id: string): Promise<void>;
  definition(id: string): Promise<Template>;
  replaceDefinition(id: string, definition: unknown): Promise<void>;
  serverData(id: string, all: boolean): Promise<ServerDataView>;
  setServerData(id: string, values: Record<string, VariableValue>, onlyUserEditable: boolean): Promise<void>;
  flags(id: string): Promise<FlagsView>;
  setFlags(id: string, flags: Partial<FlagsView>): Promise<void>;
  action(id: string, action: ServerAction, wait: boolean): Promise<void>;
  console(id: string, since: number): Promise<ConsoleView>;
  sendConsole(id: string, line: string): Promise<void>;
  stats(id: string): Promise<StatsView>;
  status(id: string): Promise<ServerStatusView>;
  /**
   * Streams the granted channels; resolves to a function that ends the stream.
   * `onEnd` gets the node's close code when the node ended it (1013: the
   * panel read too slowly and should resync from the ring).
   */
  subscribe(
    id: string,
    channels: readonly SocketChannel[],
    onMessage: (message: SocketMessage) => void,
    onEnd: (code?: number) => void,
  ): Promise<() => void>;
}
