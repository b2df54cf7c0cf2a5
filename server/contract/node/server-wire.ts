import type {
  EggRule,
  Group,
  ServerLimits,
  Template,
  Variable,
  VariableValue,
} from "../../templates/index.ts";

/** Shapes that cross the panel↔node seam for servers (reference §4, §5.8–§5.10). */
export interface ServerStatusView {
  running: boolean;
  installing: boolean;
  /** Ours, beside the reference's two: false until the install steps have run once (Start refused). */
  installed?: boolean;
  /** Ours: running, but an imported egg's done line has not appeared in its console yet. */
  starting?: boolean;
  /** Ours: while not installed, why the last install failed (absent when none was tried). */
  installFailure?: string;
  /** Ours: stopped because its process crashed (exited unasked, not with the expected code). */
  crashed?: boolean;
}

export interface StatsView {
  cpu: number;
  memory: number;
  /**
   * Ours, beside the reference's two (GET …/stats only, not the socket's
   * frames): the limits in force, the node's defaults filled in, so a list
   * can show usage against them.
   */
  limits?: ServerLimits;
  /** Ours: bytes the server's folders held at the node's last disk measurement, when it has one. */
  disk?: number;
}

/** Console output since a time: `logs` is base64 of the raw bytes, `epoch` in µs. */
export interface ConsoleView {
  epoch: number;
  logs: string;
}

export interface ServerDataView {
  data: Record<string, Variable>;
  groups: Group[];
  /** An imported egg's checks of these variables (egg-rules.ts), for the editor to check as the node does. */
  rules?: Record<string, EggRule>;
}

export interface FlagsView {
  autoStart: boolean;
  autoRestartOnCrash: boolean;
  autoRestartOnGraceful: boolean;
}

export type ServerAction = "start" | "stop" | "kill" | "install" | "reload";
export const serverActions: readonly ServerAction[] = ["start", "stop", "kill", "install", "reload"];

export type SocketChannel = "console" | "status" | "stats";

/** One socket frame as the browser gets it: `{type, data}`; the stats frame's type is `stat`. */
export type SocketMessage =
  | { type: "console"; data: { epoch: 0; logs: string } }
  | { type: "status"; data: ServerStatusView }
  | { type: "stat"; data: StatsView };

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
