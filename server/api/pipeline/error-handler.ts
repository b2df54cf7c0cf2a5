import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.ts";
import { errorHeaders } from "../../http/error-headers.ts";
import { validationError } from "../../http/validation-error.ts";

/** Fastify's own client errors, in the API's envelope. */
const fastifyCodes: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, "ErrInvalidJson"],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, "ErrInvalidJson"],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, "ErrBodyTooLarge"],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, "ErrUnsupportedMediaType"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "ErrInvalidContentLength"],
};

/**
 * One place turns every thrown error into `{error:{code,msg,metadata}}`.
 * Unexpected errors are logged with their stack and answered with
 * ErrUnknownError only: no internals reach the client.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const apiError = toApiError(err, request);
    reply.headers(errorHeaders(apiError)).status(apiError.status).send(apiError.toBody());
  });
}

/** Maps anything thrown while handling a request to an ApiError; logs what was not expected. */
export function toApiError(err: FastifyError, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) {
    // A node out of contract (another version, or a bug) is for the administrator to find in the log.
    if (err.code === "ErrNodeAnswer") request.log.warn({ err: err.metadata }, err.message);
    return err;
  }
  if (err.validation) return validationError(err.validation as never, err.validationContext ?? "body");
  if (err.code && fastifyCodes[err.code]) {
    const [status, code] = fastifyCodes[err.code];
    return new ApiError(status, code, err.message);
  }
  if (err.statusCode === 429) return new ApiError(429, "ErrTooManyRequests", "too many requests");
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError(err.statusCode, "ErrBadRequest", "bad request");
  }
  request.log.error({ err }, "unhandled error");
  return new ApiError(500, "ErrUnknownError", "an unexpected error occurred");
}

/**
 * Errors Fastify's router raises before any handler (a path with malformed
 * percent-encoding such as `%zz` or an overlong `%c0%ae`), in the envelope too:
 * pass as the `frameworkErrors` option.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    err.code === "FST_ERR_BAD_URL"
      ? new ApiError(400, "ErrBadUrl", "the address is not valid percent-encoding")
      : new ApiError(400, "ErrBadRequest", "bad request");
  reply.status(apiError.status).send(apiError.toBody());
}
