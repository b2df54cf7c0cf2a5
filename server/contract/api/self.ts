import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";

export const UserView = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  otpActive: Type.Boolean(),
});
export type UserView = Static<typeof UserView>;

/** Change username/e-mail with the current password, or the password with password + newPassword. */
export const SelfUpdateBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 100 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  password: secret(Type.String({ maxLength: 1024 })),
  newPassword: Type.Optional(secret(Type.String({ maxLength: 1024 }))),
});
export type SelfUpdateBody = Static<typeof SelfUpdateBody>;

/** GET /api/self/otp; recoveryCodesLeft is Outpost's addition. */
export const OtpStatus = Type.Object({ otpEnabled: Type.Boolean(), recoveryCodesLeft: Type.Integer() });
export type OtpStatus = Static<typeof OtpStatus>;

/** POST /api/self/otp: the new secret as text, as an otpauth URI and as a QR code (data URL). */
export const OtpEnrolment = Type.Object({ secret: Type.String(), uri: Type.String(), img: Type.String() });
export type OtpEnrolment = Static<typeof OtpEnrolment>;

/** A 6-digit code, or a recovery code where one is accepted. */
export const OtpTokenBody = Type.Object({ token: secret(Type.String({ maxLength: 64 })) });
export const OtpTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 64 }) });

export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;

/** A user's own OAuth2 client; client_secret is "" except in the answer that created it. */
export const SelfClient = Type.Object({
  client_id: Type.String(),
  client_secret: Type.String(),
  name: Type.String(),
  description: Type.String(),
});
export type SelfClient = Static<typeof SelfClient>;
export const SelfClientList = Type.Array(SelfClient);
export const SelfClientCreateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 4000 })),
});
export const SelfClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64 }) });
