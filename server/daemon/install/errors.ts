import { ApiError } from "../../errors.ts";

/**
 * Why an install / pre / post step failed. The reference answers a failed
 * install with 500 and the Go error's text (ErrGeneric); here the message
 * always names the step, and, when the network is the cause, the host.
 */
export const installErrors = {
  missingFactory: (type: string) =>
    new ApiError(500, "ErrMissingFactory", "no executor for ${operatorName}", { operatorName: type }),
  /** `options.cause`: the error the step failed with, kept for the log. */
  failed: (
    step: string,
    message: string,
    metadata: Record<string, string | number> = {},
    options?: ErrorOptions,
  ) => new ApiError(500, "ErrGeneric", `${step}: ${message}`, { operation: step, ...metadata }, options),
  unreachable: (step: string, url: string, reason: string, options?: ErrorOptions) => {
    const host = hostOf(url);
    return new ApiError(
      500,
      "ErrGeneric",
      `${step}: could not reach ${host} (${reason})`,
      { operation: step, host },
      options,
    );
  },
  httpStatus: (step: string, url: string, status: number, statusText: string) =>
    new ApiError(
      500,
      "ErrGeneric",
      `${step}: ${url} answered ${status}${statusText ? ` ${statusText}` : ""}`,
      {
        operation: step,
        host: hostOf(url),
        status,
      },
    ),
  cancelled: () => new ApiError(500, "ErrGeneric", "the steps were cancelled"),
};

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
