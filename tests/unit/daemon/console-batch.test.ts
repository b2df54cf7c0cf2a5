import { describe, expect, it } from "vitest";
import { ConsoleBatcher } from "../../../server/daemon/runtime/console-batch.ts";
import type { ConsoleChunk } from "../../../server/daemon/runtime/console-buffer.ts";
import { waitUntil } from "../../support/poll.ts";

const chunk = (text: string, time: number): ConsoleChunk => ({ time, data: Buffer.from(text) });

describe("ConsoleBatcher", () => {
  it("sends the lines of one window as one chunk, in order, stamped with the last one's time", async () => {
    const sent: ConsoleChunk[] = [];
    const batch = new ConsoleBatcher((c) => sent.push(c), 10);
    for (let i = 0; i < 500; i++) batch.push(chunk(`line ${i}\n`, i + 1));
    expect(sent).toEqual([]);
    await waitUntil(async () => sent.length > 0, 5000, 5);
    expect(sent).toHaveLength(1);
    expect(sent[0].time).toBe(500);
    expect(sent[0].data.toString()).toBe(Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join(""));
  });

  it("sends at once when a batch reaches its size, so a flood is neither held back nor merged into one frame", () => {
    const sent: ConsoleChunk[] = [];
    const batch = new ConsoleBatcher((c) => sent.push(c), 60_000, 1000);
    for (let i = 0; i < 10; i++) batch.push(chunk("x".repeat(300), i));
    // 300 × 4 ≥ 1000: a chunk goes every fourth push; the last two wait for their window.
    expect(sent.map((c) => c.data.length)).toEqual([1200, 1200]);
    batch.flush();
    expect(sent.map((c) => c.data.length)).toEqual([1200, 1200, 600]);
  });

  it("flush sends what is waiting now, and nothing when nothing is", () => {
    const sent: ConsoleChunk[] = [];
    const batch = new ConsoleBatcher((c) => sent.push(c), 60_000);
    batch.flush();
    expect(sent).toEqual([]);
    const only = chunk("bye\n", 7);
    batch.push(only);
    batch.flush();
    expect(sent).toEqual([only]);
  });
});
