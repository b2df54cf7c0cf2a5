import { ApiError } from "../../errors.ts";

/** What a move answers when it cannot go on, on either node. */
export const transferErrors = {
  running: () => new ApiError(409, "ErrServerRunning", "stop the server before moving it to another node"),
  inProgress: () => new ApiError(409, "ErrTransferInProgress", "this server is already being moved"),
  grant: () => new ApiError(403, "ErrTransferGrantInvalid", "the transfer grant is invalid, expired or used"),
  notSent: () => new ApiError(409, "ErrTransferNotSent", "no finished export under this grant"),
  source: (reason: string, cause?: unknown) =>
    new ApiError(
      502,
      "ErrTransferSource",
      "the source node could not send the server: ${reason}",
      { reason },
      {
        cause,
      },
    ),
  corrupt: () =>
    new ApiError(502, "ErrTransferCorrupt", "what arrived does not match what the source node sent"),
};
