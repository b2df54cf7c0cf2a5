import { type NodeRcon, RconAnswer } from "../contract/node/rcon-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** The daemon waits 5 s for the game's answer; this leaves room for the way there and back. */
const rconCallMs = 8000;

/** A remote node's RCON, through POST /daemon/server/{id}/rcon. */
export class RemoteRcon implements NodeRcon {
  constructor(readonly http: NodeHttp) {}

  async send(id: string, command: string): Promise<string> {
    const { answer } = await this.http.call("POST", `/daemon/server/${encodeURIComponent(id)}/rcon`, {
      json: { command },
      answer: RconAnswer,
      timeoutMs: rconCallMs,
    });
    return answer;
  }
}
