import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { logStream, prettyLine } from "../../../server/http/log-output.ts";
import { logSettings } from "../../../server/shared-settings.ts";

const logFormat = (env: Record<string, string>, isTerminal: boolean) => logSettings(env, isTerminal).format;

describe("log output", () => {
  it("is pretty on a terminal and JSON elsewhere, unless OUTPOST_LOG_FORMAT says", () => {
    expect(logFormat({}, true)).toBe("pretty");
    expect(logFormat({}, false)).toBe("json");
    expect(logFormat({ OUTPOST_LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormat({ OUTPOST_LOG_FORMAT: "PRETTY" }, false)).toBe("pretty");
    expect(logFormat({ OUTPOST_LOG_FORMAT: "fancy" }, false)).toBe("json");
  });

  it("writes one readable line an event: time, level, message, then the other fields", () => {
    const time = new Date(2026, 10, 25, 12, 3, 4).getTime();
    const line = prettyLine(
      JSON.stringify({
        level: 40,
        time,
        pid: 1,
        hostname: "h",
        msg: "node down",
        node: 3,
        reason: { code: "ECONNREFUSED" },
      }),
    );
    expect(line).toBe('12:03:04 WARN  node down node=3 reason={"code":"ECONNREFUSED"}');
  });

  it("shows an error's message and the stack below it", () => {
    const line = prettyLine(
      JSON.stringify({
        level: 50,
        time: 0,
        err: { message: "boom", stack: "Error: boom\n    at here (x.ts:1:1)" },
      }),
    );
    expect(line.split("\n")).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d ERROR boom$/),
      "    at here (x.ts:1:1)",
    ]);
  });

  it("passes a line that is not JSON through as it is", () => {
    expect(prettyLine("plain text")).toBe("plain text");
  });

  it("leaves JSON to pino, and turns each written line into a pretty one", async () => {
    expect(logStream("json")).toBeUndefined();
    const out = new PassThrough();
    const stream = logStream("pretty", out);
    let written = "";
    out.on("data", (d) => (written += d));
    stream?.write(
      `${JSON.stringify({ level: 30, time: 0, msg: "a" })}\n${JSON.stringify({ level: 30, time: 0, msg: "b" })}\n`,
    );
    await new Promise((r) => setImmediate(r));
    expect(
      written
        .trim()
        .split("\n")
        .map((l) => l.slice(9)),
    ).toEqual(["INFO  a", "INFO  b"]);
  });
});
