import net from "node:net";
import { ApiError } from "../../errors.ts";

/**
 * A Source RCON client (developer.valvesoftware.com/wiki/Source_RCON_Protocol), the protocol of
 * Steam games and of Minecraft's `enable-rcon`: little-endian packets of
 * `size, id, type, body NUL, NUL`. One connection per command: authenticate, send, read the
 * answer, close — a player action is rare, and a held connection would outlive a restart.
 */

export const rconTypes = { auth: 3, authResponse: 2, exec: 2, response: 0 } as const;

export interface RconPacket {
  id: number;
  type: number;
  body: string;
}

/** The largest packet either side sends (the protocol's own limit). */
const maxPacket = 4096 + 10;

export function encodeRconPacket({ id, type, body }: RconPacket): Buffer {
  const text = Buffer.from(body, "utf8");
  const packet = Buffer.alloc(14 + text.length);
  packet.writeInt32LE(10 + text.length, 0);
  packet.writeInt32LE(id, 4);
  packet.writeInt32LE(type, 8);
  text.copy(packet, 12);
  return packet;
}

/** Takes whole packets off the front of `buffer`; returns them and what is left. */
export function decodeRconPackets(buffer: Buffer): { packets: RconPacket[]; rest: Buffer } {
  const packets: RconPacket[] = [];
  let at = 0;
  while (buffer.length - at >= 4) {
    const size = buffer.readInt32LE(at);
    if (size < 10 || size > maxPacket) throw new Error(`a packet of ${size} bytes`);
    if (buffer.length - at < 4 + size) break;
    const id = buffer.readInt32LE(at + 4);
    const type = buffer.readInt32LE(at + 8);
    const body = buffer.subarray(at + 12, at + 4 + size - 2).toString("utf8");
    packets.push({ id, type, body });
    at += 4 + size;
  }
  return { packets, rest: buffer.subarray(at) };
}

export interface RconTarget {
  host: string;
  port: number;
  password: string;
}

export const rconFailed = (reason: string) =>
  new ApiError(502, "ErrRconFailed", "the game's RCON did not take the command: ${reason}", { reason });

/** Runs one command and resolves to the answer's text. */
export function rconCommand(target: RconTarget, command: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const authId = 1;
    const commandId = 2;
    let pending: Buffer = Buffer.alloc(0);
    let done = false;
    const socket = net.connect({ host: target.host, port: target.port });
    const finish = (error: ApiError | null, answer = "") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer);
    };
    const timer = setTimeout(() => finish(rconFailed("no answer in time")), timeoutMs);
    socket.on("connect", () =>
      socket.write(encodeRconPacket({ id: authId, type: rconTypes.auth, body: target.password })),
    );
    socket.on("error", (err: NodeJS.ErrnoException) => finish(rconFailed(err.code ?? err.message)));
    socket.on("close", () => finish(rconFailed("the connection closed")));
    socket.on("data", (chunk) => {
      let packets: RconPacket[];
      try {
        ({ packets, rest: pending } = decodeRconPackets(Buffer.concat([pending, chunk])));
      } catch (err) {
        return finish(rconFailed((err as Error).message));
      }
      for (const packet of packets) {
        // Source servers send an empty response before the auth answer; it says nothing.
        if (packet.type === rconTypes.authResponse && packet.id === -1)
          return finish(rconFailed("wrong password"));
        if (packet.type === rconTypes.authResponse && packet.id === authId) {
          socket.write(encodeRconPacket({ id: commandId, type: rconTypes.exec, body: command }));
        } else if (packet.type === rconTypes.response && packet.id === commandId) {
          return finish(null, packet.body);
        }
      }
    });
  });
}
