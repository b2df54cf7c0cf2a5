import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../../server/daemon/sandbox/index.ts";
import { SftpListener } from "../../../server/daemon/sftp/sftp-server.ts";

/** A TCP connection that never says a word; resolves once it is open, with a promise of its end. */
function silent(port: number, from = "127.0.0.1"): Promise<{ socket: net.Socket; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: from });
    const ended = new Promise<void>((r) => socket.once("close", () => r()));
    socket.on("data", () => {});
    socket.once("error", () => {});
    socket.once("connect", () => resolve({ socket, ended }));
    ended.then(() => reject(new Error("closed before it opened")));
  });
}

/** Whether a promise settles within `ms`. */
const settles = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

/** Signs in with a real SSH client; resolves with the client once signed in. */
function signIn(port: number, from: string): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.once("ready", () => resolve(client));
    client.once("error", reject);
    client.connect({
      host: "127.0.0.1",
      port,
      localAddress: from,
      username: "user@example.com#srv",
      password: "pw",
      readyTimeout: 10_000,
    });
  });
}

// Issue 13 #4: the SFTP port (in the panel's own process on the local node) must not let anyone
// hold connections without signing in until the process runs out of file descriptors.
describe("the SFTP listener's connection gate", () => {
  let dir: string;
  let listener: SftpListener;
  let port: number;
  const signInGraceMs = 1500;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-sftp-gate-"));
    const sandbox = new Sandbox(dir);
    listener = new SftpListener({
      host: "127.0.0.1",
      port: 0,
      dataDir: dir,
      authorize: async () => ({ write: true }),
      sandboxOf: (id) => (id === "srv" ? sandbox : undefined),
      log: { info: () => {}, warn: () => {} },
      limits: { total: 6, perAddress: 3, signInGraceMs },
    });
    port = (await listener.listen()).port;
  });
  afterAll(async () => {
    await listener?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("drops connections over the per-address cap at once, lets other addresses in, and cuts the silent ones after the grace period", async () => {
    const held = [await silent(port), await silent(port), await silent(port)];
    // The fourth from the same address is dropped without a word.
    const over = net.connect({ host: "127.0.0.1", port });
    let greeted = false;
    over.on("data", () => {
      greeted = true;
    });
    over.on("error", () => {});
    await new Promise<void>((r) => over.once("close", () => r()));
    expect(greeted).toBe(false);

    // Another address signs in meanwhile, and stays past the grace period once signed in.
    const client = await signIn(port, "127.0.0.2");
    const clientClosed = new Promise<void>((r) => client.once("close", () => r()));

    // Those that never signed in are cut.
    for (const { ended } of held) expect(await settles(ended, signInGraceMs * 10)).toBe(true);
    expect(await settles(clientClosed, signInGraceMs * 2)).toBe(false);
    // Their places are free again.
    (await silent(port)).socket.destroy();
    client.end();
  });

  it("drops connections over the total cap, whatever their address", async () => {
    const held = [];
    for (let i = 0; i < 6; i++) held.push(await silent(port, `127.0.0.${10 + i}`));
    const over = net.connect({ host: "127.0.0.1", port, localAddress: "127.0.0.30" });
    over.on("error", () => {});
    await new Promise<void>((r) => over.once("close", () => r()));
    for (const { socket } of held) socket.destroy();
  });
});
