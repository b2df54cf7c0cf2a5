import { describe, expect, it } from "vitest";
import { CronError, nextRun, nextRuns, parseCron } from "../../../server/templates/cron.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe("cron", () => {
  it("reads the five fields, lists, ranges, steps and names", () => {
    const runs = (expression: string, from: string, count: number) =>
      nextRuns(parseCron(expression), at(from), count).map(iso);
    // Minutes 0,15,30,45 from 9 to 17 on weekdays of January and July: Tuesday 2030-01-01 ends at 17:45.
    expect(runs("*/15 9-17 * jan,JUL mon-fri", "2030-01-01T17:40:00Z", 2)).toEqual([
      "2030-01-01T17:45:00.000Z",
      "2030-01-02T09:00:00.000Z",
    ]);
    // Saturday 2030-01-05 and Sunday are skipped; February to June too.
    expect(runs("0 9 * jan,jul mon-fri", "2030-01-04T10:00:00Z", 1)).toEqual(["2030-01-07T09:00:00.000Z"]);
    expect(runs("0 9 * jan,jul mon-fri", "2030-01-31T10:00:00Z", 1)).toEqual(["2030-07-01T09:00:00.000Z"]);
    // 7 is Sunday too.
    expect(runs("0 0 * * 7", "2030-01-01T00:00:00Z", 1)).toEqual(["2030-01-06T00:00:00.000Z"]);
    // "5/20": from 5 in steps of 20.
    expect(runs("5/20 * * * *", "2030-01-01T00:00:00Z", 4)).toEqual([
      "2030-01-01T00:05:00.000Z",
      "2030-01-01T00:25:00.000Z",
      "2030-01-01T00:45:00.000Z",
      "2030-01-01T01:05:00.000Z",
    ]);
  });

  it("knows the shorthands", () => {
    const from = at("2030-03-10T10:20:00Z");
    expect(iso(nextRun(parseCron("@hourly"), from))).toBe("2030-03-10T11:00:00.000Z");
    expect(iso(nextRun(parseCron("@daily"), from))).toBe("2030-03-11T00:00:00.000Z");
    expect(iso(nextRun(parseCron("@weekly"), from))).toBe("2030-03-17T00:00:00.000Z"); // a Sunday
    expect(iso(nextRun(parseCron("@monthly"), from))).toBe("2030-04-01T00:00:00.000Z");
    expect(iso(nextRun(parseCron("@yearly"), from))).toBe("2031-01-01T00:00:00.000Z");
  });

  it("refuses bad expressions, naming the field", () => {
    expect(() => parseCron("* * * *")).toThrow(/5 fields/);
    expect(() => parseCron("0 * * * * *")).toThrow(/5 fields/);
    expect(() => parseCron("60 * * * *")).toThrow(/^minute: "60" is outside 0-59$/);
    expect(() => parseCron("0 0 0 * *")).toThrow(/^day of month: "0" is outside 1-31$/);
    expect(() => parseCron("0 0 * 13 *")).toThrow(/^month: "13" is outside 1-12/);
    expect(() => parseCron("* * * foo *")).toThrow(/^month: "foo" is not valid/);
    expect(() => parseCron("*/0 * * * *")).toThrow(/^minute: "\*\/0" is not valid \(.*stepping/);
    expect(() => parseCron("5-1 * * * *")).toThrow(/^minute: "5-1" is not valid \(.*larger/);
    expect(() => parseCron("@sometimes")).toThrow(CronError);
    expect(() => parseCron("@reboot")).toThrow(/unknown shorthand/);
    expect(() => parseCron("* * * * *", "Mars/Olympus")).toThrow(/time zone/);
  });

  it("runs strictly after the given time, every minute", () => {
    const s = parseCron("* * * * *");
    expect(nextRuns(s, at("2030-01-01T00:00:30Z"), 3).map(iso)).toEqual([
      "2030-01-01T00:01:00.000Z",
      "2030-01-01T00:02:00.000Z",
      "2030-01-01T00:03:00.000Z",
    ]);
    expect(iso(nextRun(s, at("2030-01-01T00:01:00Z")))).toBe("2030-01-01T00:02:00.000Z");
  });

  it("says when a schedule never fires, and finds a rare one", () => {
    expect(nextRun(parseCron("0 0 31 2 *"), Date.now())).toBeUndefined();
    expect(iso(nextRun(parseCron("0 12 29 2 *"), at("2030-03-01T00:00:00Z")))).toBe(
      "2032-02-29T12:00:00.000Z",
    );
  });

  it("matches either day field when both are restricted", () => {
    // 13th of the month or any Friday: 2030-09-06 is a Friday, before the 13th.
    expect(iso(nextRun(parseCron("0 0 13 * 5"), at("2030-09-01T00:00:00Z")))).toBe(
      "2030-09-06T00:00:00.000Z",
    );
  });

  it("reads wall time in the server's time zone, through daylight-saving changes", () => {
    const s = parseCron("30 2 * * *", "Europe/Berlin");
    // 2030-03-31: clocks jump from 02:00 to 03:00; 02:30 does not happen, so it runs at 03:00.
    expect(nextRuns(s, at("2030-03-29T12:00:00Z"), 3).map(iso)).toEqual([
      "2030-03-30T01:30:00.000Z",
      "2030-03-31T01:00:00.000Z",
      "2030-04-01T00:30:00.000Z",
    ]);
    // An interval skips the missing hour: 01:45 (00:45 UTC) is followed by 03:00 (01:00 UTC).
    expect(
      nextRuns(parseCron("*/15 * * * *", "Europe/Berlin"), at("2030-03-31T00:40:00Z"), 2).map(iso),
    ).toEqual(["2030-03-31T00:45:00.000Z", "2030-03-31T01:00:00.000Z"]);
    // 2030-10-27: 02:30 happens twice; it fires once.
    expect(nextRuns(s, at("2030-10-26T12:00:00Z"), 2).map(iso)).toEqual([
      "2030-10-27T00:30:00.000Z",
      "2030-10-28T01:30:00.000Z",
    ]);
    // Midnight after a 23-hour day is not skipped.
    expect(nextRuns(parseCron("@daily", "Europe/Berlin"), at("2030-03-30T12:00:00Z"), 2).map(iso)).toEqual([
      "2030-03-30T23:00:00.000Z",
      "2030-03-31T22:00:00.000Z",
    ]);
  });
});
