import type { OidcLinkView, OidcProviderBody, OidcProviderView } from "../../server/contract/api/oidc";
import { type CallOptions, del, get, post, put } from "./client";

// The signed-in user's links to OpenID Connect providers (issue 39).

export type { OidcLinkView };
export const listOidcLinks = () => get<OidcLinkView[]>("/api/self/oidc-links");
/** Where the browser goes to link the provider (its sign-in page, which sends it back here). */
export const startOidcLink = (providerId: number) =>
  post<{ url: string }>(`/api/self/oidc-links/${providerId}`);
export const removeOidcLink = (id: number) => del<void>(`/api/self/oidc-links/${id}`);

// The providers themselves, for administrators: the client secret is write-only (clientSecretSet).
export type { OidcProviderBody, OidcProviderView };
export const listOidcProviders = (opts?: CallOptions) => get<OidcProviderView[]>("/api/oidc-providers", opts);
export const createOidcProvider = (body: OidcProviderBody) =>
  post<OidcProviderView>("/api/oidc-providers", body);
export const updateOidcProvider = (id: number, body: OidcProviderBody) =>
  put<OidcProviderView>(`/api/oidc-providers/${id}`, body);
export const deleteOidcProvider = (id: number) => del<void>(`/api/oidc-providers/${id}`);
