import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";

/** An OpenID Connect provider as administrators see it (issue 39); the client secret never leaves. */
export const OidcProviderView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  issuer: Type.String(),
  clientId: Type.String(),
  /** Whether a secret is stored; the secret itself is write-only. */
  clientSecretSet: Type.Boolean(),
  scopes: Type.Array(Type.String()),
  createAccounts: Type.Boolean(),
  allowedDomains: Type.Array(Type.String()),
  trustUnverifiedEmail: Type.Boolean(),
  roleClaim: Type.Union([Type.String(), Type.Null()]),
  roleMap: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
  enabled: Type.Boolean(),
});
export type OidcProviderView = Static<typeof OidcProviderView>;
export const OidcProviderList = Type.Array(OidcProviderView);

/**
 * POST and PUT /api/oidc-providers: `clientSecret` "" (or absent) on a PUT keeps the stored one.
 * `scopes` defaults to openid, email and profile; `allowedDomains` empty allows every domain.
 * `roleMap` maps a value of the ID token's `roleClaim` to a role (its id, or its name): at each
 * sign-in the user holds the mapped roles the claim names and loses the map's others.
 */
export const OidcProviderBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  issuer: Type.String({ minLength: 1, maxLength: 1024 }),
  clientId: Type.String({ minLength: 1, maxLength: 255 }),
  clientSecret: Type.Optional(secret(Type.String({ maxLength: 1024 }))),
  scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 })),
  createAccounts: Type.Optional(Type.Boolean()),
  allowedDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
  trustUnverifiedEmail: Type.Optional(Type.Boolean()),
  roleClaim: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  roleMap: Type.Optional(
    Type.Union([Type.Record(Type.String(), Type.String({ maxLength: 64 })), Type.Null()]),
  ),
  enabled: Type.Optional(Type.Boolean()),
});
export type OidcProviderBody = Static<typeof OidcProviderBody>;

// A serial id: PostgreSQL refuses (500) a larger one in a comparison, so the schema does first.
export const OidcProviderParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** One of the signed-in user's links to a provider. */
export const OidcLinkView = Type.Object({
  id: Type.Integer(),
  providerId: Type.Integer(),
  providerName: Type.String(),
  email: Type.String(),
  createdAt: Type.Integer(),
  lastUsedAt: Type.Union([Type.Integer(), Type.Null()]),
});
export type OidcLinkView = Static<typeof OidcLinkView>;
export const OidcLinkList = Type.Array(OidcLinkView);
export const OidcLinkParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** Where the browser goes to link the provider: its authorization page. */
export const OidcLinkStart = Type.Object({ url: Type.String() });
