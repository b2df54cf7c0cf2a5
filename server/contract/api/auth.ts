import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";

/** Wire shapes of /auth/* and /oauth2/token. The browser imports these types only. */
export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 255 }),
  password: secret(Type.String({ maxLength: 1024 })),
});
export type LoginBody = Static<typeof LoginBody>;

export const OtpBody = Type.Object({ token: secret(Type.String({ maxLength: 64 })) });
export type OtpBody = Static<typeof OtpBody>;

export const RegisterBody = Type.Object({
  username: Type.String({ maxLength: 100 }),
  email: Type.String({ maxLength: 255 }),
  password: secret(Type.String({ maxLength: 1024 })),
});
export type RegisterBody = Static<typeof RegisterBody>;

/**
 * `{scopes}` after a completed sign-in, `{otpNeeded: true}` when a second step must follow;
 * `secondFactors` (Outpost's) says which, when a passkey may be that step.
 */
export const LoginAnswer = Type.Object({
  scopes: Type.Optional(Type.Array(Type.String())),
  otpNeeded: Type.Optional(Type.Boolean()),
  secondFactors: Type.Optional(Type.Array(Type.Union([Type.Literal("otp"), Type.Literal("passkey")]))),
});
export type LoginAnswer = Static<typeof LoginAnswer>;

export const TokenBody = Type.Object({
  grant_type: Type.String({ maxLength: 64 }),
  client_id: Type.Optional(Type.String({ maxLength: 128 })),
  client_secret: Type.Optional(secret(Type.String({ maxLength: 256 }))),
});

export const TokenAnswer = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer(),
  scope: Type.String(),
});
export type TokenAnswer = Static<typeof TokenAnswer>;
