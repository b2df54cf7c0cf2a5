import type { ServerContext } from "../../../server/templates/index.ts";

/** A Linux host server context; tests override what they look at. */
export function serverContext(overrides: Partial<ServerContext> = {}): ServerContext {
  return {
    serverId: "0a1b2c3d",
    rootDir: "/srv/outpost/0a1b2c3d",
    os: "linux",
    arch: "amd64",
    env: "host",
    variables: {},
    userValues: new Set(),
    ...overrides,
  };
}

/** The error envelope an ApiError thrown by `run` would produce. */
export function errorBody(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return (error as { toBody(): unknown }).toBody();
  }
  throw new Error("expected an error");
}
