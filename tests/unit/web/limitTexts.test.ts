import { describe, expect, it } from "vitest";
import { limitTexts, readLimits } from "../../../src/screens/servers/limits";

describe("the limit fields' texts", () => {
  const empty = limitTexts(undefined);

  it("read swap (a number or unlimited), CPU threads and IO weight, and give them back as texts", () => {
    const texts = { ...empty, memoryMiB: "512", swapMiB: "0", cpuThreads: " 0-1,3 ", ioWeight: "700" };
    const limits = { memoryMiB: 512, swapMiB: 0, cpuThreads: "0-1,3", ioWeight: 700 };
    expect(readLimits(texts)).toEqual({ limits, invalid: [], problems: {} });
    expect(limitTexts(limits)).toMatchObject({ swapMiB: "0", cpuThreads: "0-1,3", ioWeight: "700" });
    const unlimited = readLimits({ ...empty, memoryMiB: "512", swapMiB: "unlimited" });
    expect(unlimited.limits).toEqual({ memoryMiB: 512, swapMiB: "unlimited" });
    expect(limitTexts(unlimited.limits).swapMiB).toBe("unlimited");
  });

  it("say what is wrong with each", () => {
    const { limits, problems } = readLimits({
      ...empty,
      swapMiB: "64",
      cpuThreads: "0, 1",
      ioWeight: "5",
      pids: "0",
    });
    expect(limits).toEqual({});
    expect(problems).toEqual({
      swapMiB: "needsMemory",
      cpuThreads: "cpus",
      ioWeight: "range",
      pids: "whole",
    });
    expect(readLimits({ ...empty, memoryMiB: "64", swapMiB: "-1", ioWeight: "1.5" }).problems).toEqual({
      swapMiB: "whole",
      ioWeight: "whole",
    });
  });
});
