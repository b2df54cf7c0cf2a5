import type { FastifyBaseLogger, FastifyLogFn, FastifyServerOptions } from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;

const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * A request's logger (request.log), made only when the request logs something. Fastify gives every
 * request a child of the app's logger with the request's id bound; pino builds one per call (the
 * bindings serialised, a new object), a cost on every call although few requests ever log. This
 * stands in for it, builds the same child on first use and hands everything to it, so what is
 * logged (request id, level, redaction) is unchanged.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;
  // The log methods, on the prototype (below): none is made per request.
  declare fatal: FastifyLogFn;
  declare error: FastifyLogFn;
  declare warn: FastifyLogFn;
  declare info: FastifyLogFn;
  declare debug: FastifyLogFn;
  declare trace: FastifyLogFn;
  declare silent: FastifyLogFn;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

for (const level of levels) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value: function log(this: LazyChildLogger, ...args: unknown[]) {
      return (this.logger[level] as (...args: unknown[]) => void)(...args);
    },
  });
}

export const lazyChildLogger: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => new LazyChildLogger(logger, bindings, options);
