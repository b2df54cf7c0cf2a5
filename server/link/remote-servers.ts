import {
  ConsoleView,
  FlagsView,
  type NodeServers,
  type ServerAction,
  ServerDataView,
  ServerStatusView,
  type SocketChannel,
  type SocketMessage,
  StatsView,
} from "../contract/node/server-wire.ts";
import { WireTemplate } from "../contract/node/template-wire.ts";
import type { Template, VariableValue } from "../templates/index.ts";
import type { NodeHttp } from "./node-http.ts";

/** ws loads with the first remote node: a panel with its local node alone never needs it. */
let ws: Promise<typeof import("ws")> | undefined;
const loadWs = () => {
  ws ??= import("ws");
  return ws;
};

/** Servers of a remote node, through the daemon's routes under /daemon/server/{id}. */
export class RemoteServers implements NodeServers {
  constructor(private readonly http: NodeHttp) {
    // Asked for now, so that the first socket to this node does not wait for the module.
    loadWs();
  }

  private path(id: string, rest = ""): string {
    return `/daemon/server/${encodeURIComponent(id)}${rest}`;
  }

  async createServer(id: string, definition: unknown): Promise<void> {
    await this.http.call("PUT", this.path(id), { json: definition });
  }

  async deleteServer(id: string): Promise<void> {
    await this.http.call("DELETE", this.path(id), { timeoutMs: 120_000 });
  }

  definition(id: string): Promise<Template> {
    return this.http.call("GET", this.path(id, "/definition"), { answer: WireTemplate });
  }

  async replaceDefinition(id: string, definition: unknown): Promise<void> {
    await this.http.call("PUT", this.path(id, "/definition"), { json: definition });
  }

  serverData(id: string, all: boolean): Promise<ServerDataView> {
    return this.http.call("GET", this.path(id, `/data${all ? "?all=true" : ""}`), { answer: ServerDataView });
  }

  async setServerData(
    id: string,
    values: Record<string, VariableValue>,
    onlyUserEditable: boolean,
  ): Promise<void> {
    await this.http.call("POST", this.path(id, "/data"), { json: { values, onlyUserEditable } });
  }

  flags(id: string): Promise<FlagsView> {
    return this.http.call("GET", this.path(id, "/flags"), { answer: FlagsView });
  }

  async setFlags(id: string, flags: Partial<FlagsView>): Promise<void> {
    await this.http.call("POST", this.path(id, "/flags"), { json: flags });
  }

  async action(id: string, action: ServerAction, wait: boolean): Promise<void> {
    // Waiting for an install or a stop can take long; the node bounds it, not us.
    await this.http.call("POST", this.path(id, `/${action}${wait ? "?wait=true" : ""}`), {
      timeoutMs: wait ? 0 : undefined,
    });
  }

  console(id: string, since: number): Promise<ConsoleView> {
    return this.http.call("GET", this.path(id, `/console?time=${since}`), { answer: ConsoleView });
  }

  async sendConsole(id: string, line: string): Promise<void> {
    await this.http.call("POST", this.path(id, "/console"), { text: line });
  }

  stats(id: string): Promise<StatsView> {
    return this.http.call("GET", this.path(id, "/stats"), { answer: StatsView });
  }

  status(id: string): Promise<ServerStatusView> {
    return this.http.call("GET", this.path(id, "/status"), { answer: ServerStatusView });
  }

  async subscribe(
    id: string,
    channels: readonly SocketChannel[],
    onMessage: (message: SocketMessage) => void,
    onEnd: (code?: number) => void,
  ): Promise<() => void> {
    const url = `${this.http.address.baseUrl.replace(/^http/, "ws")}${this.path(id, "/socket")}?${channels.join("&")}`;
    const { default: WebSocket } = await loadWs();
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${this.http.token()}` } });
      let opened = false;
      socket.on("open", () => {
        opened = true;
        resolve(() => socket.close());
      });
      socket.on("message", (data) => {
        try {
          onMessage(JSON.parse(data.toString()));
        } catch {
          // A frame that is not JSON is not ours to relay.
        }
      });
      socket.on("error", (error) => {
        if (!opened) reject(this.http.unreachable(error));
      });
      socket.on("close", (code) => {
        if (opened) onEnd(code);
      });
    });
  }
}
