/**
 * The sandbox: every path a user, a request or a template names is turned
 * into a place inside one server's folder here, and nowhere else.
 */
export { denylistMatcher, ProtectedSandbox } from "./denylist.ts";
export { sandboxErrors } from "./errors.ts";
export { Sandbox } from "./sandbox.ts";
export { readStreamOf, writeStreamOf } from "./streams.ts";
export type { Location } from "./walk.ts";
