import type { OidcLinkView } from "../../server/contract/api/oidc";
import { del, get, post } from "./client";

// The signed-in user's links to OpenID Connect providers (issue 39).

export type { OidcLinkView };
export const listOidcLinks = () => get<OidcLinkView[]>("/api/self/oidc-links");
/** Where the browser goes to link the provider (its sign-in page, which sends it back here). */
export const startOidcLink = (providerId: number) =>
  post<{ url: string }>(`/api/self/oidc-links/${providerId}`);
export const removeOidcLink = (id: number) => del<void>(`/api/self/oidc-links/${id}`);
