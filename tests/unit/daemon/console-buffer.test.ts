import { describe, expect, it } from "vitest";
import { ConsoleBuffer } from "../../../server/daemon/runtime/console-buffer.ts";

describe("ConsoleBuffer", () => {
  it("returns what came after a given time, and the stamp to continue from", () => {
    const buffer = new ConsoleBuffer(1024);
    buffer.write("one\n");
    const first = buffer.since(0);
    expect(first.logs.toString()).toBe("one\n");
    buffer.write("two\n");
    buffer.write("three\n");
    expect(buffer.since(first.epoch).logs.toString()).toBe("two\nthree\n");
    expect(buffer.since(buffer.since(0).epoch).logs.length).toBe(0);
  });

  it("drops the oldest output past its capacity", () => {
    const buffer = new ConsoleBuffer(10);
    buffer.write("aaaa");
    buffer.write("bbbb");
    buffer.write("cccc");
    expect(buffer.since(0).logs.toString()).toBe("bbbbcccc");
    buffer.write("x".repeat(25));
    expect(buffer.since(0).logs.toString()).toBe("x".repeat(10));
  });

  it("stays bounded and in order over many writes", () => {
    const buffer = new ConsoleBuffer(1000);
    for (let i = 0; i < 10_000; i++) buffer.write(`${i}\n`);
    const text = buffer.since(0).logs.toString();
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.endsWith("9999\n")).toBe(true);
    const lines = text.trim().split("\n").map(Number);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it("tells listeners about every chunk until they unsubscribe", () => {
    const buffer = new ConsoleBuffer();
    const seen: string[] = [];
    const stop = buffer.subscribe((c) => seen.push(c.data.toString()));
    buffer.write("a");
    buffer.write("b");
    stop();
    buffer.write("c");
    expect(seen).toEqual(["a", "b"]);
  });

  it("gives listeners a chunk larger than its capacity whole, and keeps only its tail", () => {
    const buffer = new ConsoleBuffer(10);
    const seen: string[] = [];
    buffer.subscribe((c) => seen.push(c.data.toString()));
    buffer.write("0123456789abcdef");
    expect(seen).toEqual(["0123456789abcdef"]);
    expect(buffer.since(0).logs.toString()).toBe("6789abcdef");
  });

  it("keeps the last lines of a flood that filled it when one more line comes (its exit notice)", () => {
    const buffer = new ConsoleBuffer(100);
    const lines = Array.from({ length: 10 }, (_, i) => `line-${String(i + 1).padStart(4, "0")}\n`);
    // One read of the pipe: exactly the capacity, ten lines of ten bytes.
    buffer.write(lines.join(""));
    buffer.write("end\n");
    expect(buffer.since(0).logs.toString()).toBe(`${lines.slice(1).join("")}end\n`);
    // A chunk whose first line is cut must not change what a listener was given.
    const seen: string[] = [];
    buffer.subscribe((c) => seen.push(c.data.toString()));
    buffer.write("x".repeat(50));
    expect(buffer.since(0).logs.length).toBeLessThanOrEqual(100);
    expect(
      buffer
        .since(0)
        .logs.toString()
        .endsWith(`end\n${"x".repeat(50)}`),
    ).toBe(true);
    expect(seen).toEqual(["x".repeat(50)]);
  });

  it("keeps the tail of one long line that filled it when more output comes, cut between characters", () => {
    const buffer = new ConsoleBuffer(100);
    // One read of a line with no end as large as the ring, its characters two bytes each.
    buffer.write("é".repeat(50));
    buffer.write("next\n");
    const kept = buffer.since(0).logs;
    expect(kept.length).toBeLessThanOrEqual(100);
    // Before: the long line went whole and only "next" was left.
    expect(kept.toString()).toBe(`${"é".repeat(47)}next\n`);
  });
});
