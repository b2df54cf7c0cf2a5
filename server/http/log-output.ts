/**
 * Where the panel's and the daemon's logs go: one JSON object a line (pino's
 * own) for a log collector, or one readable line an event for a person at a
 * terminal (OUTPOST_LOG_FORMAT, read by the config modules: shared-settings.ts).
 */
import { Writable } from "node:stream";
import type { LogFormat } from "../shared-settings.ts";

export type { LogFormat };

const levelNames: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const colours: Record<number, string> = { 20: "\x1b[90m", 40: "\x1b[33m", 50: "\x1b[31m", 60: "\x1b[35m" };
/** pino's fields that the line shows in its own way, or that say nothing to a person. */
const shownApart = new Set(["level", "time", "msg", "pid", "hostname", "v", "err"]);

/** One pino JSON line as `12:03:04 WARN  message key=value …` (the error's stack on the lines below). */
export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const time = new Date(typeof entry.time === "number" ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = typeof entry.level === "number" ? entry.level : 30;
  const name = (levelNames[level] ?? String(level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !shownApart.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const message = [entry.msg ?? err?.message ?? "", ...fields].join(" ");
  const stack = err?.stack ? `\n${err.stack.split("\n").slice(1).join("\n")}` : "";
  const tint = colour ? (colours[level] ?? "") : "";
  return `${time} ${tint}${name}${tint ? "\x1b[0m" : ""} ${message}${stack}`;
}

/** A destination for Fastify's `logger.stream`: undefined (pino's own JSON on stdout) or pretty lines. */
export function logStream(
  format: LogFormat,
  out: NodeJS.WritableStream = process.stdout,
  allowColour = true,
): Writable | undefined {
  if (format === "json") return undefined;
  const colour = "isTTY" in out && Boolean(out.isTTY) && allowColour;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      // pino writes one whole JSON line per call.
      for (const line of chunk.toString("utf8").split("\n"))
        if (line) out.write(`${prettyLine(line, colour)}\n`);
      done();
    },
  });
}
