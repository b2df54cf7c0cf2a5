import os from "node:os";
import { logStream } from "../../http/log-output.ts";
import type { LogSettings } from "../../shared-settings.ts";

/**
 * The daemon's logger: pino's JSON line (`{"level","time","pid","hostname",
 * …fields,"msg"}`), so the panel's and the daemon's logs read alike and
 * log-output.ts shows both as pretty lines on a terminal, without loading
 * pino. Callers pass fields they chose; no header (the panel's token) is
 * ever one of them.
 */
export type LogFields = Record<string, unknown>;
type LogCall = (fieldsOrMsg: LogFields | string, msg?: string) => void;

export interface Logger {
  debug: LogCall;
  info: LogCall;
  warn: LogCall;
  error: LogCall;
  /** A logger that adds `bindings` (a request's id) to every line. */
  child(bindings: LogFields): Logger;
  readonly isDebug: boolean;
}

const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** pino's `err` serializer: the error's kind, message and stack (which stays in the log). */
function serialized(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  return { type: value.constructor.name, message: value.message, stack: value.stack };
}

export function createLogger(
  { level, format, colour }: LogSettings,
  out: NodeJS.WritableStream = process.stdout,
): Logger {
  // "silent" (or anything unknown above fatal) logs nothing.
  const threshold = levels[level as keyof typeof levels] ?? Number.POSITIVE_INFINITY;
  const sink = logStream(format, out, colour) ?? out;
  const head = { pid: process.pid, hostname: os.hostname() };

  const make = (bindings: LogFields): Logger => {
    const at =
      (value: number): LogCall =>
      (fieldsOrMsg, msg) => {
        if (value < threshold) return;
        const fields = typeof fieldsOrMsg === "string" ? {} : fieldsOrMsg;
        const line: LogFields = { level: value, time: Date.now(), ...head, ...bindings };
        for (const [key, field] of Object.entries(fields)) line[key] = serialized(field);
        line.msg = typeof fieldsOrMsg === "string" ? fieldsOrMsg : msg;
        sink.write(`${JSON.stringify(line)}\n`);
      };
    return {
      debug: at(levels.debug),
      info: at(levels.info),
      warn: at(levels.warn),
      error: at(levels.error),
      child: (more) => make({ ...bindings, ...more }),
      isDebug: levels.debug >= threshold,
    };
  };
  return make({});
}
