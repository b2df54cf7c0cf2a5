import { type Static, Type } from "typebox";

/** One of the signed-in user's passkeys (issue 39). */
export const PasskeyView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.Integer(),
  lastUsedAt: Type.Union([Type.Integer(), Type.Null()]),
});
export type PasskeyView = Static<typeof PasskeyView>;
export const PasskeyList = Type.Array(PasskeyView);

/**
 * WebAuthn's options and a browser's answer, as JSON (PublicKeyCredentialCreationOptionsJSON,
 * RegistrationResponseJSON…): @simplewebauthn checks their inside; the API bounds their size.
 */
export const WebAuthnJson = Type.Record(Type.String(), Type.Unknown());

export const PasskeyRegisterBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  response: WebAuthnJson,
});

export const PasskeyRenameBody = Type.Object({ name: Type.String({ maxLength: 100 }) });
export const PasskeyParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** POST /auth/passkey: a signed challenge from POST /auth/passkey/options. */
export const PasskeySignInBody = Type.Object({ response: WebAuthnJson });
