import {
  OtpEnrolment,
  OtpStatus,
  OtpTokenBody,
  OtpTokenParams,
  RecoveryCodes,
} from "../contract/api/self.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Two-factor sign-in of the signed-in user (reference §3.4, §12.17). */
export function selfOtpRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { twoFactor } = services;

  api.get(
    "/api/self/otp",
    { config: { access: "self.edit" }, schema: { response: { 200: OtpStatus } } },
    async (request) => twoFactor.status(requirePrincipal(request).user.id),
  );

  api.post(
    "/api/self/otp",
    { config: { access: "self.edit" }, schema: { response: { 200: OtpEnrolment } } },
    async (request) => twoFactor.startEnrolment(requirePrincipal(request).user),
  );

  // The reference's first version answered 204; later ones answer the recovery codes, as here.
  api.put(
    "/api/self/otp",
    { config: { access: "self.edit" }, schema: { body: OtpTokenBody, response: { 200: RecoveryCodes } } },
    async (request) => ({
      recoveryCodes: await twoFactor.confirmEnrolment(
        requirePrincipal(request).user,
        request.body.token,
        request.ip,
        request.log,
      ),
    }),
  );

  api.delete(
    "/api/self/otp/:token",
    { config: { access: "self.edit" }, schema: { params: OtpTokenParams } },
    async (request, reply) => {
      await twoFactor.disable(requirePrincipal(request).user, request.params.token, request.ip, request.log);
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/self/otp/recovery",
    { config: { access: "self.edit" }, schema: { body: OtpTokenBody, response: { 200: RecoveryCodes } } },
    async (request) => ({
      recoveryCodes: await twoFactor.regenerateRecoveryCodes(
        requirePrincipal(request).user,
        request.body.token,
        request.ip,
        request.log,
      ),
    }),
  );
}
