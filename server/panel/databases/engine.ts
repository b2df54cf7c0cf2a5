import { ApiError } from "../../errors.ts";

/** Where and as whom the panel reaches a database host (the password in plain form, opened from its seal). */
export interface HostAccess {
  name: string;
  host: string;
  port: number;
  username: string;
  password: string;
}

/** One database and the one user that may use it, as named on the host. */
export interface DatabaseNames {
  database: string;
  username: string;
}

/**
 * What the panel does on a database host. Every value reaches SQL only as a quoted identifier of
 * names that passed the strict patterns (server-databases.ts) or as a parameter / quoted literal:
 * never spliced in as it came.
 */
export interface DatabaseEngine {
  /** Connects, answers the server's version. */
  version(): Promise<string>;
  /** The database, then its user; what was made is undone when a later step fails. */
  create(names: DatabaseNames, password: string): Promise<void>;
  /** Both, whichever of them exist (a half-made pair from a crash included). */
  drop(names: DatabaseNames): Promise<void>;
  setPassword(names: DatabaseNames, password: string): Promise<void>;
}

const leftOnHost = new WeakSet<object>();

/** A failed create that may have left its database or user on the host (its undo failed too). */
export function leftSomething(error: unknown): boolean {
  return typeof error === "object" && error !== null && leftOnHost.has(error);
}

export function markLeftSomething<T>(error: T): T {
  if (typeof error === "object" && error !== null) leftOnHost.add(error);
  return error;
}

/** Short enough that a form does not hang on a host that is down, long enough for a slow link. */
export const connectTimeoutMs = 5000;
export const statementTimeoutMs = 20_000;

const refusedCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH"]);
const nameCodes = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME"]);
/** mysql: ER_ACCESS_DENIED_ERROR, ER_ACCESS_DENIED_NO_PASSWORD_ERROR; postgres: 28P01, 28000. */
const authCodes = new Set(["ER_ACCESS_DENIED_ERROR", "ER_ACCESS_DENIED_NO_PASSWORD_ERROR", "28P01", "28000"]);
/** mysql: ER_DBACCESS_DENIED_ERROR, ER_SPECIFIC_ACCESS_DENIED_ERROR, ER_TABLEACCESS_DENIED_ERROR; postgres: 42501. */
const privilegeCodes = new Set([
  "ER_DBACCESS_DENIED_ERROR",
  "ER_SPECIFIC_ACCESS_DENIED_ERROR",
  "ER_TABLEACCESS_DENIED_ERROR",
  "42501",
]);
/** mysql: ER_DB_CREATE_EXISTS, ER_CANNOT_USER (user exists); postgres: duplicate_database, duplicate_object. */
const existsCodes = new Set(["ER_DB_CREATE_EXISTS", "ER_CANNOT_USER", "42P04", "42710"]);

function isTimeout(error: { code?: string; message?: string }): boolean {
  return error.code === "ETIMEDOUT" || /timeout|timed out/i.test(error.message ?? "");
}

/** The first line of what the host or the socket said, short, for the error's metadata. */
function said(error: { message?: string }): string {
  return (error.message ?? "").split("\n")[0].slice(0, 200);
}

/**
 * A failure talking to a host, as a clear error: refused, wrong user or password, no answer in
 * time, a name that does not resolve, missing privileges, or what the host said. The cause is kept.
 */
export function hostError(host: string, cause: unknown, database?: string): ApiError {
  const error = (cause ?? {}) as { code?: string; message?: string };
  const code = String(error.code ?? "");
  const options = { cause };
  if (refusedCodes.has(code))
    return new ApiError(
      502,
      "ErrDatabaseHostRefused",
      "database host ${host} refused the connection",
      { host },
      options,
    );
  if (nameCodes.has(code))
    return new ApiError(
      502,
      "ErrDatabaseHostUnreachable",
      "database host ${host} could not be reached: ${reason}",
      { host, reason: said(error) },
      options,
    );
  if (authCodes.has(code))
    return new ApiError(
      502,
      "ErrDatabaseHostAuth",
      "database host ${host} refused the panel's user name or password",
      { host },
      options,
    );
  if (privilegeCodes.has(code))
    return new ApiError(
      502,
      "ErrDatabaseHostPrivileges",
      "the panel's user on database host ${host} may not do this: ${reason}",
      { host, reason: said(error) },
      options,
    );
  if (existsCodes.has(code) && database)
    return new ApiError(
      409,
      "ErrDatabaseExists",
      "a database or user named ${name} already exists on ${host}",
      { host, name: database },
      options,
    );
  if (isTimeout(error))
    return new ApiError(
      504,
      "ErrDatabaseHostTimeout",
      "database host ${host} did not answer in time",
      { host },
      options,
    );
  return new ApiError(
    502,
    "ErrDatabaseHostFailed",
    "database host ${host} said: ${reason}",
    { host, reason: said(error) },
    options,
  );
}
