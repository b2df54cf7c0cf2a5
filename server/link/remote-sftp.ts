import type { NodeSftp, SftpSessionFilter } from "../contract/node/sftp-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's SFTP sessions, through the daemon's POST /daemon/sftp/end. */
export class RemoteSftp implements NodeSftp {
  constructor(readonly http: NodeHttp) {}

  async endSessions(filter: SftpSessionFilter): Promise<void> {
    await this.http.call("POST", "/daemon/sftp/end", { json: filter });
  }
}
