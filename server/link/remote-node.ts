import { NodeFeatures } from "../contract/node/features.ts";
import type { NodeClient } from "./node-client.ts";
import { NodeHttp, type RemoteNodeAddress } from "./node-http.ts";
import { NodeLiveStream } from "./node-live-stream.ts";
import { RemoteBackups } from "./remote-backups.ts";
import { RemoteEvents } from "./remote-events.ts";
import { RemoteFiles } from "./remote-files.ts";
import { RemoteHistory } from "./remote-history.ts";
import { RemoteMods } from "./remote-mods.ts";
import { RemoteQuery } from "./remote-query.ts";
import { RemoteRcon } from "./remote-rcon.ts";
import { RemoteServers } from "./remote-servers.ts";
import { RemoteSftp } from "./remote-sftp.ts";
import { RemoteTasks } from "./remote-tasks.ts";
import { RemoteTransfers } from "./remote-transfers.ts";

export type { RemoteNodeAddress };

/** A node reached over the daemon's HTTP + WebSocket API. */
export class RemoteNode implements NodeClient {
  readonly nodeId: number;
  readonly servers: RemoteServers;
  readonly files: RemoteFiles;
  readonly backups: RemoteBackups;
  readonly query: RemoteQuery;
  readonly rcon: RemoteRcon;
  readonly mods: RemoteMods;
  readonly sftp: RemoteSftp;
  readonly tasks: RemoteTasks;
  readonly history: RemoteHistory;
  readonly events: RemoteEvents;
  readonly transfers: RemoteTransfers;
  readonly live: NodeLiveStream;
  private readonly http: NodeHttp;

  constructor(address: RemoteNodeAddress, timeoutMs = 5000) {
    this.nodeId = address.nodeId;
    this.http = new NodeHttp(address, timeoutMs);
    this.servers = new RemoteServers(this.http);
    this.files = new RemoteFiles(this.http);
    this.backups = new RemoteBackups(this.http);
    this.query = new RemoteQuery(this.http);
    this.rcon = new RemoteRcon(this.http);
    this.mods = new RemoteMods(this.http);
    this.sftp = new RemoteSftp(this.http);
    this.tasks = new RemoteTasks(this.http);
    this.history = new RemoteHistory(this.http);
    this.transfers = new RemoteTransfers(this.http);
    this.live = new NodeLiveStream(this.http);
    this.events = new RemoteEvents(this.live);
  }

  get reachable(): boolean {
    return this.http.state === "up";
  }

  get comebacks(): number {
    return this.http.comebacks;
  }

  async health(): Promise<void> {
    await this.http.call("GET", "/daemon", { timeoutMs: 2000, evenIfDown: true });
  }

  features(): Promise<NodeFeatures> {
    return this.http.call("GET", "/daemon/features", { answer: NodeFeatures });
  }
}
