import net from "node:net";
import { echoDefinition } from "./echo-template.ts";
import { freePort } from "./free-port.ts";

/**
 * A stand-in for a Minecraft *game server* (the thing the query asks, not
 * the thing under test): it speaks the 1.7+ Server List Ping on loopback —
 * a handshake and a status request in, one JSON status out — and counts the
 * status requests it answered. `silent` accepts connections and never answers.
 */
export async function fakeMinecraft(status: unknown, silent = false) {
  let pings = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let received = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      // The handshake (id 0, next state 1) then the status request: a packet of length 1, id 0.
      if (silent || !received.subarray(-2).equals(Buffer.from([0x01, 0x00]))) return;
      pings += 1;
      const json = Buffer.from(JSON.stringify(status));
      const body = Buffer.concat([Buffer.from([0x00]), varint(json.length), json]);
      socket.write(Buffer.concat([varint(body.length), body]));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    pings: () => pings,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest) byte |= 0x80;
    bytes.push(byte);
  } while (rest);
  return Buffer.from(bytes);
}

export const minecraftStatus = {
  version: { name: "1.21.4", protocol: 769 },
  players: {
    max: 20,
    online: 2,
    sample: [
      { name: "Alex", id: "00000000-0000-0000-0000-000000000001" },
      { name: "Steve", id: "00000000-0000-0000-0000-000000000002" },
    ],
  },
  description: { text: "A fake world" },
};

/** The echo server (a real process that keeps running) asked as a Minecraft server on `port`. */
export function minecraftDefinition(port: number) {
  const echo = echoDefinition();
  return echoDefinition({
    data: {
      ...echo.data,
      ip: { type: "string", value: "0.0.0.0", display: "IP" },
      port: { ...echo.data.port, value: port },
    },
    query: { type: "minecraft" },
  });
}
