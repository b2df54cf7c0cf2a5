import { afterEach, describe, expect, it, vi } from "vitest";
import { echoGraceMs, QueryEchoFilter } from "../../../server/daemon/query/query-echo.ts";

const connected = "dbg: [net] [server] Client connected from 127.0.0.1 on frame 138\n";
const closed = "dbg: [net] [server] Client #2 closed connection\n";
const text = (b: Buffer) => b.toString("utf8");

describe("the console leaves out a game's log of the node's own query (issue 41)", () => {
  afterEach(() => vi.useRealTimers());

  it("drops the pair one question makes, and only while it is out and shortly after", () => {
    vi.useFakeTimers();
    const filter = new QueryEchoFilter();
    // No question out: everything shows.
    expect(text(filter.filter(Buffer.from(connected)))).toBe(connected);
    const done = filter.expect("openttd");
    expect(text(filter.filter(Buffer.from(`before\n${connected}`)))).toBe("before\n");
    done();
    vi.advanceTimersByTime(echoGraceMs - 100);
    expect(text(filter.filter(Buffer.from(`${closed}after`)))).toBe("after");
    // A second visitor in the same window is a real one: shown.
    expect(text(filter.filter(Buffer.from(connected)))).toBe(connected);
    expect(filter.folded).toBe(2);
    vi.advanceTimersByTime(200);
    const next = filter.expect("openttd");
    next();
    vi.advanceTimersByTime(echoGraceMs);
    // The window closed without its echo: nothing is awaited any more.
    expect(text(filter.filter(Buffer.from(closed)))).toBe(closed);
  });

  it("keeps a player from elsewhere, partial lines and other games' output as they are", () => {
    const filter = new QueryEchoFilter();
    filter.expect("openttd");
    const player = "dbg: [net] [server] Client connected from 203.0.113.9 on frame 12\n";
    expect(text(filter.filter(Buffer.from(player)))).toBe(player);
    // Not yet a whole line: it goes on, not held back.
    expect(text(filter.filter(Buffer.from(connected.trimEnd())))).toBe(connected.trimEnd());
    const minecraft = new QueryEchoFilter();
    minecraft.expect("minecraft");
    expect(text(minecraft.filter(Buffer.from(connected)))).toBe(connected);
  });
});
