import type { FastifyError, FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import { validationError } from "./validation.ts";

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
    let apiError: ApiError;
    if (err instanceof ApiError) {
      apiError = err;
    } else if (err.validation) {
      apiError = validationError(err.validation as never, err.validationContext ?? "body");
    } else if (err.code && fastifyCodes[err.code]) {
      const [status, code] = fastifyCodes[err.code];
      apiError = new ApiError(status, code, err.message);
    } else if (err.statusCode === 429) {
      apiError = new ApiError(429, "ErrTooManyRequests", "too many requests");
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      apiError = new ApiError(err.statusCode, "ErrBadRequest", "bad request");
    } else {
      request.log.error({ err }, "unhandled error");
      apiError = new ApiError(500, "ErrUnknownError", "an unexpected error occurred");
    }
    if (apiError.status === 401) reply.header("WWW-Authenticate", 'Bearer realm="outpost"');
    reply.status(apiError.status).send(apiError.toBody());
  });
}
