import { describe, expect, it } from "vitest";
import { ConsoleBatch, consoleBatchBytes } from "../../../server/daemon/console-batch.ts";
import type { SocketMessage } from "../../../server/link/server-wire.ts";

const text = (frame: SocketMessage) =>
  frame.type === "console" ? Buffer.from(frame.data.logs, "base64").toString() : "";

describe("ConsoleBatch", () => {
  it("sends the chunks of a window as one frame, the same object to every watcher", async () => {
    const batch = new ConsoleBatch(5);
    const a: SocketMessage[] = [];
    const b: SocketMessage[] = [];
    batch.watch((f) => a.push(f));
    batch.watch((f) => b.push(f));
    batch.push(Buffer.from("one\n"));
    batch.push(Buffer.from("two\n"));
    expect(a).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(a).toHaveLength(1);
    expect(text(a[0])).toBe("one\ntwo\n");
    expect(b[0]).toBe(a[0]);
    // The reference's frame: {type: "console", data: {epoch: 0, logs: base64}}.
    expect(Object.keys(a[0])).toEqual(["type", "data"]);
    expect(a[0].type === "console" && Object.keys(a[0].data)).toEqual(["epoch", "logs"]);
  });

  it("sends what waits at once on flush (before a status change), and nothing twice", async () => {
    const batch = new ConsoleBatch(5);
    const seen: string[] = [];
    batch.watch((f) => seen.push(text(f)));
    batch.push(Buffer.from("before\n"));
    batch.flush();
    expect(seen).toEqual(["before\n"]);
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual(["before\n"]);
  });

  it("sends a flood in frames of bounded size, every byte in order", () => {
    const batch = new ConsoleBatch(1000);
    const frames: string[] = [];
    batch.watch((f) => frames.push(text(f)));
    const flood = Array.from({ length: 40_000 }, (_, i) => `${i}\n`).join("");
    for (let at = 0; at < flood.length; at += 7000) batch.push(Buffer.from(flood.slice(at, at + 7000)));
    batch.push(Buffer.from("x".repeat(3 * consoleBatchBytes)));
    batch.flush();
    expect(frames.length).toBeGreaterThan(4);
    for (const frame of frames) expect(frame.length).toBeLessThanOrEqual(consoleBatchBytes);
    expect(frames.join("")).toBe(flood + "x".repeat(3 * consoleBatchBytes));
  });

  it("gathers nothing while no one watches, and drops what waits when the last watcher leaves", async () => {
    const batch = new ConsoleBatch(5);
    batch.push(Buffer.from("unseen\n"));
    const seen: string[] = [];
    const stop = batch.watch((f) => seen.push(text(f)));
    batch.push(Buffer.from("dropped\n"));
    stop();
    batch.watch((f) => seen.push(text(f)));
    batch.push(Buffer.from("seen\n"));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(["seen\n"]);
  });
});
