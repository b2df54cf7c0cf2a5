/**
 * The one error type of the API. Anything thrown that is not an ApiError is
 * reported to the client as ErrUnknownError and logged on the server.
 * Wire shape: { "error": { "code", "msg", "metadata" } } (reference §1.1).
 */
export type ErrorMetadata = Record<string, string | number | boolean>;

export class ApiError extends Error {
  /** `options.cause`: the error this one stands for, kept so that a log shows the chain. */
  constructor(
    readonly status: number,
    readonly code: string,
    msg?: string,
    readonly metadata?: ErrorMetadata,
    options?: ErrorOptions,
  ) {
    super(msg ?? code, options);
  }

  toBody(): { error: { code: string; msg?: string; metadata?: ErrorMetadata } } {
    const error: { code: string; msg?: string; metadata?: ErrorMetadata } = { code: this.code };
    if (this.message && this.message !== this.code) error.msg = this.message;
    if (this.metadata && Object.keys(this.metadata).length > 0) error.metadata = this.metadata;
    return { error };
  }
}

/**
 * What an error says, for a person: an ApiError's message is a template its
 * metadata fills (as a client fills it), any other error's its message.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const metadata = error instanceof ApiError ? error.metadata : undefined;
  if (!metadata) return error.message;
  return error.message.replace(/\$\{(\w+)\}/g, (whole, key: string) =>
    key in metadata ? String(metadata[key]) : whole,
  );
}

/** Shorthands for the errors used in more than one place. */
export const errors = {
  notLoggedIn: () => new ApiError(401, "ErrTokenInvalid", "not logged in"),
  missingScope: (scope: string) => new ApiError(403, "ErrMissingScope", "missing scope ${scope}", { scope }),
  invalidCredentials: () => new ApiError(400, "ErrInvalidCredentials", "invalid credentials"),
  loginNotPermitted: () => new ApiError(403, "ErrLoginNotPermitted", "login not permitted"),
  twoFactorRequired: () =>
    new ApiError(403, "ErrTwoFactorRequired", "set up two-factor sign-in first: this panel requires it"),
  notFound: () => new ApiError(404, "ErrNotFound", "not found"),
  /** A user path that would leave a server's root; the path goes in the message, for logs. */
  illegalFileAccess: (path: string, why: string) =>
    new ApiError(400, "ErrIllegalFileAccess", `illegal file access: ${JSON.stringify(path)} ${why}`),
  serverNotFound: () => new ApiError(404, "ErrServerNotFound", "no such server"),
  clientNotFound: () => new ApiError(404, "ErrClientNotFound", "OAuth2 client not found"),
  userNotFound: () => new ApiError(404, "ErrUserNotFound", "user not found"),
  userExists: (field: string) =>
    new ApiError(409, "ErrUserExists", "a user with this ${field} already exists", { field }),
  fieldRequired: (field: string) => new ApiError(400, "ErrFieldRequired", "${field} is required", { field }),
  fieldLength: (field: string, min: number, max: number) =>
    new ApiError(400, "ErrFieldLength", "${field} must be between ${min} and ${max} characters", {
      field,
      min,
      max,
    }),
  fieldNotEmail: (field: string) =>
    new ApiError(400, "ErrFieldNotEmail", "${field} must be an email address", { field }),
  /**
   * A node answered a daemon call with JSON that breaks the contract's schema
   * (server/contract/node): `field` is the JSON path that broke ("" for the
   * whole answer), `path` the daemon's path, without its query.
   */
  nodeAnswer: (node: number, path: string, field: string) =>
    new ApiError(
      502,
      "ErrNodeAnswer",
      'node ${node} answered ${path} with a body that breaks the contract at "${field}"',
      { node, path, field },
    ),
  passwordRequirements: () =>
    new ApiError(400, "ErrPasswordRequirements", "password must be at least ${min} characters", { min: 8 }),
};
