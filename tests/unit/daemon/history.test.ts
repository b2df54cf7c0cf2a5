import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  fineKeepMs,
  HistoryStore,
  hourlyKeepMs,
  hourMs,
} from "../../../server/daemon/history/history-store.ts";
import { rollUp, thinOut } from "../../../server/daemon/history/roll-up.ts";

const t0 = Date.UTC(2026, 0, 1, 10); // a whole hour
const minute = 60_000;

describe("rollUp", () => {
  it("gives each hour the exact min, average and max of its samples", () => {
    const samples = [
      { time: t0, cpu: 10, memory: 1000, disk: 500 },
      { time: t0 + 20 * minute, cpu: 30, memory: 3000, disk: 500, players: 2 },
      { time: t0 + 40 * minute, cpu: 5, memory: 2000, disk: 800, players: 5 },
      { time: t0 + hourMs + 5 * minute, cpu: 100, memory: 7, disk: 9 },
    ];
    expect(rollUp(samples, hourMs)).toEqual([
      {
        time: t0,
        cpu: 15,
        memory: 2000,
        disk: 600,
        players: 3.5, // of the two samples that had a count
        min: { cpu: 5, memory: 1000, disk: 500, players: 2 },
        max: { cpu: 30, memory: 3000, disk: 800, players: 5 },
        n: 3,
      },
      {
        time: t0 + hourMs,
        cpu: 100,
        memory: 7,
        disk: 9,
        min: { cpu: 100, memory: 7, disk: 9 },
        max: { cpu: 100, memory: 7, disk: 9 },
        n: 1,
      },
    ]);
  });

  it("merges roll-ups by how many samples each stands for, keeping their own extremes", () => {
    const hours = [
      { time: t0, cpu: 10, memory: 100, min: { cpu: 1, memory: 50 }, max: { cpu: 40, memory: 150 }, n: 3 },
      {
        time: t0 + hourMs,
        cpu: 20,
        memory: 300,
        min: { cpu: 15, memory: 200 },
        max: { cpu: 22, memory: 400 },
        n: 1,
      },
    ];
    expect(rollUp(hours, 2 * hourMs)).toEqual([
      {
        time: t0,
        cpu: 12.5, // (10·3 + 20·1) / 4
        memory: 150, // (100·3 + 300·1) / 4
        min: { cpu: 1, memory: 50 },
        max: { cpu: 40, memory: 400 },
        n: 4,
      },
    ]);
  });

  it("rounds percentages to two decimals and bytes to whole bytes", () => {
    const [point] = rollUp(
      [
        { time: t0, cpu: 1, memory: 1 },
        { time: t0 + 1, cpu: 1, memory: 2 },
        { time: t0 + 2, cpu: 2, memory: 2 },
      ],
      hourMs,
    );
    expect(point.cpu).toBe(1.33);
    expect(point.memory).toBe(2);
  });

  it("thins a long series to at most the points asked, in whole steps", () => {
    const samples = Array.from({ length: 3600 }, (_, i) => ({ time: t0 + i * 1000, cpu: i % 2, memory: i }));
    const thin = thinOut(samples, 1000, hourMs, 60);
    expect(thin.stepMs).toBe(60_000);
    expect(thin.points).toHaveLength(60);
    expect(thin.points[0]).toMatchObject({ cpu: 0.5, memory: 30, min: { memory: 0 }, max: { memory: 59 } });
    expect(thinOut(samples.slice(0, 10), 1000, hourMs, 60).points).toHaveLength(10);
  });
});

describe("HistoryStore", () => {
  let dir: string;
  let now: number;
  const clock = () => now;
  const lines = (file: string) =>
    fs.readFileSync(path.join(dir, file), "utf8").trim().split("\n").filter(Boolean);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-history-"));
    now = t0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Samples every `everyMs` from `from` for `forMs`, the clock following. */
  async function feed(store: HistoryStore, key: string, from: number, forMs: number, everyMs: number) {
    for (let time = from; time < from + forMs; time += everyMs) {
      now = time;
      await store.record(key, { time, cpu: 50, memory: (time - t0) / minute });
    }
  }

  it("keeps 24 hours of samples and rolls every hour up", async () => {
    const store = new HistoryStore(dir, clock);
    await feed(store, "server-a", t0, 30 * hourMs, 10 * minute);
    const fine = await store.fine("server-a", 0);
    // Cut at each hour's end: never more than 25 hours' worth on file.
    expect(fine[0].time).toBeGreaterThanOrEqual(now - fineKeepMs - hourMs);
    expect(lines("server-a.fine.jsonl").length).toBeLessThanOrEqual(25 * 6);
    const hourly = await store.hourly("server-a", 0);
    expect(hourly).toHaveLength(30); // 29 hours ended, and the one under way
    expect(hourly[0]).toMatchObject({
      time: t0,
      cpu: 50,
      memory: 25, // minutes 0, 10, …, 50
      min: { memory: 0 },
      max: { memory: 50 },
      n: 6,
    });
  });

  it("keeps hourly roll-ups 30 days, so the files stay bounded", async () => {
    const store = new HistoryStore(dir, clock);
    await feed(store, "node", t0, 33 * 24 * hourMs, hourMs / 2);
    const hourly = await store.hourly("node", 0);
    // Cut a day past the bound at most, rather than rewritten every hour.
    expect(hourly[0].time).toBeGreaterThanOrEqual(now - hourlyKeepMs - 25 * hourMs);
    expect(lines("node.hourly.jsonl").length).toBeLessThanOrEqual(31 * 24 + 1);
    expect(lines("node.fine.jsonl").length).toBeLessThanOrEqual(25 * 2);
    const bytes = fs.statSync(path.join(dir, "node.hourly.jsonl")).size;
    expect(bytes).toBeLessThan(300_000);
  }, 60_000);

  it("finds its history again after a restart, rolling up the hours it missed", async () => {
    const before = new HistoryStore(dir, clock);
    await feed(before, "server-b", t0, 90 * minute, 15 * minute); // 10:00 … 11:15
    await before.flush();
    // A torn line from a crash mid-append is skipped.
    fs.appendFileSync(path.join(dir, "server-b.fine.jsonl"), '{"time":');

    now = t0 + 3 * hourMs + 5 * minute; // back at 13:05: 11:00's hour ended while down
    const after = new HistoryStore(dir, clock);
    expect(after.keys()).toEqual(["server-b"]);
    await after.load("server-b");
    expect((await after.fine("server-b", 0)).map((p) => p.time)).toEqual(
      [0, 15, 30, 45, 60, 75].map((m) => t0 + m * minute),
    );
    const hourly = await after.hourly("server-b", 0);
    expect(hourly.map((p) => [p.time, p.n, p.memory])).toEqual([
      [t0, 4, 23],
      [t0 + hourMs, 2, 68],
    ]);
    // The next sample goes on from there.
    await after.record("server-b", { time: now, cpu: 1, memory: 1 });
    expect((await after.hourly("server-b", 0)).map((p) => p.time)).toEqual([
      t0,
      t0 + hourMs,
      t0 + 3 * hourMs,
    ]);
  });

  it("forgets a series with its files", async () => {
    const store = new HistoryStore(dir, clock);
    await store.record("server-c", { time: now, cpu: 1, memory: 1 });
    await store.forget("server-c");
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(await store.fine("server-c", 0)).toEqual([]);
    expect(() => store.record("../escape", { time: now, cpu: 1, memory: 1 })).toThrow(/not a history series/);
  });
});
