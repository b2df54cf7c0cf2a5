import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { LiveChannel, type LiveSocketLike } from "../../../src/state/liveStatus";
import { liveStats, serverStatus } from "../../../src/state/serverStatus";
import { waitUntil } from "../../support/poll.ts";

// The page's /api/live channel against a real WebSocket server on loopback.

let wss: WebSocketServer;
let url = "";
const peers: WebSocket[] = [];
const watches: string[][] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((r) => wss.once("listening", r));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api/live`;
  wss.on("connection", (socket) => {
    peers.push(socket);
    socket.on("message", (data) => watches.push(JSON.parse(data.toString()).ids));
  });
});
afterAll(() => new Promise((r) => wss.close(r)));

const channel = () =>
  new LiveChannel({ url, createSocket: (address) => new WebSocket(address) as unknown as LiveSocketLike });
const openPeers = () => peers.filter((p) => p.readyState === WebSocket.OPEN);

describe("the live channel", () => {
  it("tells the socket the union of what screens watch, and closes it when none does", async () => {
    const live = channel();
    const stopList = live.watch(["aaaa0001", "aaaa0002"]);
    const stopView = live.watch(["aaaa0002"]);
    await waitUntil(async () => live.state.value === "open" && watches.length > 0, 5000, 10);
    expect(watches.at(-1)).toEqual(["aaaa0001", "aaaa0002"]);
    expect(openPeers()).toHaveLength(1);

    openPeers()[0].send(JSON.stringify({ type: "status", id: "aaaa0001", running: true, installing: false }));
    openPeers()[0].send(JSON.stringify({ type: "stats", id: "aaaa0001", cpu: 3, memory: 1024 }));
    await waitUntil(async () => liveStats("aaaa0001").value !== undefined, 5000, 10);
    expect(serverStatus("aaaa0001").value).toBe("online");
    expect(liveStats("aaaa0001").value).toEqual({ cpu: 3, memory: 1024 });
    openPeers()[0].send(
      JSON.stringify({ type: "status", id: "aaaa0001", running: false, installing: false }),
    );
    await waitUntil(async () => serverStatus("aaaa0001").value === "offline", 5000, 10);
    expect(liveStats("aaaa0001").value).toBeUndefined();

    stopList();
    await waitUntil(async () => watches.at(-1)?.join() === "aaaa0002", 5000, 10);
    stopView();
    expect(live.state.value).toBe("closed");
    await waitUntil(async () => openPeers().length === 0, 5000, 10);
  });

  it("opens again after the socket is lost and watches the same servers", async () => {
    const live = channel();
    const stop = live.watch(["bbbb0001"]);
    await waitUntil(
      async () => live.state.value === "open" && watches.at(-1)?.join() === "bbbb0001",
      5000,
      10,
    );
    const before = watches.length;
    openPeers()[0].close(4001, "your permissions on this server changed");
    await waitUntil(async () => live.state.value === "closed", 5000, 10);
    await waitUntil(async () => live.state.value === "open" && watches.length > before, 5000, 10);
    expect(watches.at(-1)).toEqual(["bbbb0001"]);
    stop();
  });
});
