import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConsoleAnswer, ServerStats, ServerStatusAnswer } from "../../../src/api/servers";
import { coveredPrefix } from "../../../src/state/live/consoleJoin";
import { ConsoleStream } from "../../../src/state/live/consoleStream";
import { Poller } from "../../../src/state/live/poller";
import { ServerFigures } from "../../../src/state/live/serverFigures";
import { serverStatus } from "../../../src/state/serverStatus";

// The parts ServerLive is made of, each on its own (the whole, over real sockets: serverLive.test.ts).

const enc = new TextEncoder();
const b64 = (text: string) => Buffer.from(text).toString("base64");

/** A console whose reads answer what the test says, and which records what listeners got. */
function consoleWith(answers: ConsoleAnswer[]) {
  const asked: number[] = [];
  const stream = new ConsoleStream(async (since) => {
    asked.push(since);
    const next = answers.shift();
    if (!next) throw new Error("no answer");
    return next;
  });
  let out = "";
  const listen = () =>
    stream.listen(
      (bytes) => {
        out += new TextDecoder().decode(bytes);
      },
      () => {
        out += "[gap]";
      },
    );
  return { stream, asked, listen, out: () => out };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("coveredPrefix", () => {
  it("counts the first frames the read already ended with", () => {
    const frames = ["b\n", "c\n", "d\n"].map((s) => enc.encode(s));
    expect(coveredPrefix(frames, enc.encode("a\nb\nc\n"))).toBe(2);
    expect(coveredPrefix(frames, enc.encode("a\n"))).toBe(0);
  });
});

describe("the console stream", () => {
  it("keeps output for the first listener, then hands it over in order", async () => {
    const c = consoleWith([{ epoch: 5, logs: b64("one\n") }]);
    await c.stream.readNew();
    c.stream.frame(b64("two\n"));
    c.listen();
    expect(c.out()).toBe("one\ntwo\n");
    expect(c.asked).toEqual([0]);
  });

  it("holds frames during the catch-up read and leaves out those the read had", async () => {
    const c = consoleWith([{ epoch: 9, logs: b64("a\nb\n") }]);
    c.listen();
    c.stream.beginCatchUp();
    c.stream.frame(b64("b\n"));
    c.stream.frame(b64("c\n"));
    expect(c.out()).toBe("");
    await c.stream.readNew();
    c.stream.endCatchUp();
    expect(c.out()).toBe("a\nb\nc\n");
  });

  it("asks each read from the last point, and after a lost socket resyncs without repeats", async () => {
    const c = consoleWith([
      { epoch: 10_000_000, logs: b64("x\ny\n") },
      { epoch: 11_000_000, logs: b64("y\nz\n") },
    ]);
    c.listen();
    await c.stream.readNew();
    c.stream.lost(true);
    await c.stream.readNew();
    expect(c.out()).toBe("x\ny\nz\n");
    // read again from 2 s before the last known point
    expect(c.asked).toEqual([0, 8_000_000]);
  });

  it("marks a gap after a drop when the resync read cannot join what was shown", async () => {
    const c = consoleWith([
      { epoch: 10_000_000, logs: b64("x\n") },
      { epoch: 12_000_000, logs: b64("q\n") },
    ]);
    c.listen();
    await c.stream.readNew();
    c.stream.dropped();
    c.stream.lost(true);
    await c.stream.readNew();
    expect(c.out()).toBe("x\n[gap]q\n");
  });

  it("drops an answer that a newer read overtook, and a failed read changes nothing", async () => {
    let release: (a: ConsoleAnswer) => void = () => undefined;
    const answers: Promise<ConsoleAnswer>[] = [
      new Promise((r) => {
        release = r;
      }),
      Promise.resolve({ epoch: 3, logs: b64("new\n") }),
      Promise.reject(new Error("offline")),
    ];
    const stream = new ConsoleStream(() => answers.shift() as Promise<ConsoleAnswer>);
    let out = "";
    stream.listen((b) => {
      out += new TextDecoder().decode(b);
    });
    const slow = stream.readNew();
    await stream.readNew();
    release({ epoch: 2, logs: b64("old\n") });
    await slow;
    await stream.readNew();
    expect(out).toBe("new\n");
  });
});

describe("the poller", () => {
  it("reads at once and then every interval until stopped", async () => {
    vi.useFakeTimers();
    let rounds = 0;
    const poller = new Poller(async () => {
      rounds++;
    }, 1000);
    poller.start();
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(2500);
    expect(rounds).toBe(3);
    poller.stop();
    expect(poller.active).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(rounds).toBe(3);
  });
});

describe("a server's figures", () => {
  it("drops a read answered after a newer frame, keeps one that no frame overtook", async () => {
    const figures = new ServerFigures("figures1");
    let answer: (s: ServerStatusAnswer) => void = () => undefined;
    const read = figures.readStatus(
      () =>
        new Promise((r) => {
          answer = r;
        }),
    );
    figures.statusFrame({ running: true, installing: false });
    answer({ running: false, installing: false });
    await read;
    expect(serverStatus("figures1").value).toBe("online");
    await figures.readStatus(async () => ({ running: false, installing: false }));
    expect(figures.status.value).toBe("offline");

    let stats: (s: ServerStats) => void = () => undefined;
    const readStats = figures.readStats(
      () =>
        new Promise((r) => {
          stats = r;
        }),
    );
    figures.statFrame({ cpu: 12, memory: 34 });
    stats({ cpu: 1, memory: 2 });
    await readStats;
    expect(figures.stats.value).toEqual({ cpu: 12, memory: 34 });
  });

  it("drops every answer once its owner closed", async () => {
    let alive = true;
    const figures = new ServerFigures("figures2", () => alive);
    alive = false;
    await figures.readStats(async () => ({ cpu: 5, memory: 6 }));
    expect(figures.stats.value).toBeUndefined();
  });
});
