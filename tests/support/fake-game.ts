import net from "node:net";
import { freePort } from "./free-port.ts";

/**
 * A small game-like program for player tests (a stand-in for a Minecraft server's console, not
 * the thing under test): a Node script that reads console lines, answers kick, ban, pardon,
 * whitelist add/remove, op, deop and say as Minecraft does, keeps whitelist.json, ops.json and
 * banned-players.json in its folder in Minecraft's format, and leaves on "stop".
 */
export const fakeGameScript = `
const fs = require("fs");
const readline = require("readline");
const read = (file) => { try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return []; } };
const write = (file, list) => fs.writeFileSync(file, JSON.stringify(list, null, 2));
const add = (file, name, extra = {}) => write(file, [...read(file).filter((e) => e.name !== name), { uuid: "00000000-0000-0000-0000-000000000000", name, ...extra }]);
const remove = (file, name) => write(file, read(file).filter((e) => e.name !== name));
console.log('[Server thread/INFO]: Done (0.42s)! For help, type "help"');
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, ...words] = line.split(" ");
  const rest = words.slice(1).join(" ");
  const say = (text) => console.log("[Server thread/INFO]: " + text);
  if (command === "stop") { say("Stopping the server"); process.exit(0); }
  else if (command === "kick") say("Kicked " + words[0] + ": " + (rest || "Kicked by an operator"));
  else if (command === "ban") { add("banned-players.json", words[0], { source: "Server", expires: "forever", reason: rest || "Banned by an operator." }); say("Banned " + words[0] + ": " + (rest || "Banned by an operator.")); }
  else if (command === "pardon") { remove("banned-players.json", words[0]); say("Unbanned " + words[0]); }
  else if (command === "whitelist" && words[0] === "add") { add("whitelist.json", words[1]); say("Added " + words[1] + " to the whitelist"); }
  else if (command === "whitelist" && words[0] === "remove") { remove("whitelist.json", words[1]); say("Removed " + words[1] + " from the whitelist"); }
  else if (command === "op") { add("ops.json", words[0], { level: 4, bypassesPlayerLimit: false }); say("Made " + words[0] + " a server operator"); }
  else if (command === "deop") { remove("ops.json", words[0]); say("Made " + words[0] + " no longer a server operator"); }
  else if (command === "say") say("[Server] " + words.join(" "));
  else say("Unknown or incomplete command: " + line);
});
`;

/** A server definition running the script (uploaded as game.js) with Minecraft's player commands. */
export function fakeGameDefinition(over: Record<string, unknown> = {}) {
  return {
    type: "test",
    display: "Fake game",
    data: {
      port: { type: "integer", value: 25565, display: "Port" },
      rconport: { type: "integer", value: 25575, display: "RCON port" },
      rconpassword: { type: "string", value: "rcon-secret", display: "RCON password" },
    },
    install: [],
    run: { command: "node game.js", stop: "stop" },
    environment: { type: "host" },
    requirements: { os: "linux", binaries: ["node"] },
    query: { type: "minecraft" },
    ...over,
  };
}

export interface RconListener {
  port: number;
  /** The commands run, in order, after a right password. */
  commands: string[];
  /** The passwords tried. */
  passwords: string[];
  close(): Promise<void>;
}

/**
 * A Source RCON listener (the protocol of Steam games and Minecraft's RCON), written for the test
 * so that a real connection is made and what arrives is seen: it answers the auth packet (id -1
 * for a wrong password, after the empty response Source servers send first) and each command with
 * a response of the same id.
 */
export async function rconListener(password: string): Promise<RconListener> {
  const commands: string[] = [];
  const passwords: string[] = [];
  const sockets = new Set<net.Socket>();
  const packet = (id: number, type: number, body: string) => {
    const text = Buffer.from(body);
    const out = Buffer.alloc(14 + text.length);
    out.writeInt32LE(10 + text.length, 0);
    out.writeInt32LE(id, 4);
    out.writeInt32LE(type, 8);
    text.copy(out, 12);
    return out;
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let authed = false;
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32LE(0)) {
        const size = pending.readInt32LE(0);
        const id = pending.readInt32LE(4);
        const type = pending.readInt32LE(8);
        const body = pending.subarray(12, 4 + size - 2).toString();
        pending = pending.subarray(4 + size);
        if (type === 3) {
          passwords.push(body);
          authed = body === password;
          socket.write(packet(id, 0, ""));
          socket.write(packet(authed ? id : -1, 2, ""));
        } else if (type === 2 && authed) {
          commands.push(body);
          socket.write(packet(id, 0, `ran: ${body}`));
        }
      }
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    commands,
    passwords,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
