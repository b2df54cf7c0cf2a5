import type { Selectable } from "kysely";
import type { Configuration } from "openid-client";
import type { OidcProviderBody, OidcProviderView } from "../../contract/api/oidc.ts";
import type { Db } from "../../db/database.ts";
import type { OidcProviderTable } from "../../db/tables.ts";
import { ApiError } from "../../errors.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";

/** A provider as the sign-in uses it: its secret opened. */
export interface OidcProvider extends OidcProviderView {
  clientSecret: string;
}

const defaultScopes = ["openid", "email", "profile"];

export const providerNotFound = () =>
  new ApiError(404, "ErrOidcProviderNotFound", "no such OpenID Connect provider");

/**
 * The issuer as a URL the panel may fetch: https, or http on this machine only (a test's or a
 * developer's provider), as openid-client itself refuses plain http unless told otherwise.
 */
function checkIssuer(issuer: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ApiError(400, "ErrOidcIssuerInvalid", "${field} must be an https URL", { field: "issuer" });
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback))
    throw new ApiError(400, "ErrOidcIssuerInvalid", "${field} must be an https URL", { field: "issuer" });
  return url;
}

type Row = Selectable<OidcProviderTable>;

function toView(row: Row): OidcProviderView {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretSet: row.client_secret !== "",
    scopes: row.scopes.split(" ").filter(Boolean),
    createAccounts: row.create_accounts === 1,
    allowedDomains: row.allowed_domains.split(",").filter(Boolean),
    trustUnverifiedEmail: row.trust_unverified_email === 1,
    roleClaim: row.role_claim,
    roleMap: row.role_map ? (JSON.parse(row.role_map) as Record<string, string>) : null,
    enabled: row.enabled === 1,
  };
}

/**
 * The OpenID Connect providers administrators add (issue 39): issuer, client, scopes, who may
 * come in. The client secret is sealed at rest (secret-box.ts) and never answered. Each
 * provider's discovered configuration is kept in memory, keyed by what it was discovered from,
 * so an edit (or another panel's edit) is discovered afresh.
 */
export class OidcProviders {
  private readonly discovered = new Map<string, Promise<Configuration>>();

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async list(): Promise<OidcProviderView[]> {
    const rows = await this.db.selectFrom("oidc_providers").selectAll().orderBy("id").execute();
    return rows.map(toView);
  }

  /** The enabled providers, for the login page's buttons. */
  async buttons(): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom("oidc_providers")
      .select(["id", "name"])
      .where("enabled", "=", 1)
      .orderBy("id")
      .execute();
  }

  async get(id: number): Promise<OidcProvider> {
    const row = await this.db
      .selectFrom("oidc_providers")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw providerNotFound();
    return { ...toView(row), clientSecret: row.client_secret ? this.box.open(row.client_secret) : "" };
  }

  async create(body: OidcProviderBody): Promise<OidcProviderView> {
    const values = this.values(body);
    const row = await this.db
      .insertInto("oidc_providers")
      .values({ ...values, client_secret: this.seal(body.clientSecret ?? ""), created_at: Date.now() })
      .returning("id")
      .executeTakeFirstOrThrow();
    return toView((await this.row(row.id)) as Row);
  }

  async update(id: number, body: OidcProviderBody): Promise<OidcProviderView> {
    await this.get(id);
    const secret = body.clientSecret ? { client_secret: this.seal(body.clientSecret) } : {};
    await this.db
      .updateTable("oidc_providers")
      .set({ ...this.values(body), ...secret })
      .where("id", "=", id)
      .execute();
    return toView((await this.row(id)) as Row);
  }

  async delete(id: number): Promise<void> {
    const result = await this.db.deleteFrom("oidc_providers").where("id", "=", id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw providerNotFound();
  }

  /** The provider's configuration from its discovery document; openid-client checks its issuer, and its ID tokens' signatures. */
  async configuration(provider: OidcProvider): Promise<Configuration> {
    const key = JSON.stringify([provider.id, provider.issuer, provider.clientId, provider.clientSecret]);
    let found = this.discovered.get(key);
    if (!found) {
      const client = await import("openid-client");
      const issuer = checkIssuer(provider.issuer);
      found = client.discovery(
        issuer,
        provider.clientId,
        provider.clientSecret || undefined,
        provider.clientSecret ? undefined : client.None(),
        {
          // The ID token's signature is checked against the provider's published keys, as the
          // issue asks: openid-client checks it only when told (a token endpoint's answer may be
          // trusted by TLS alone, OIDC Core 3.1.3.7), so it is told.
          execute: [
            client.enableNonRepudiationChecks,
            ...(issuer.protocol === "http:" ? [client.allowInsecureRequests] : []),
          ],
          timeout: 15,
        },
      );
      this.discovered.set(key, found);
      // A failed discovery is tried again next time, not kept.
      found.catch(() => this.discovered.delete(key));
    }
    return found;
  }

  private row(id: number) {
    return this.db.selectFrom("oidc_providers").selectAll().where("id", "=", id).executeTakeFirst();
  }

  private seal(secret: string): string {
    return secret ? this.box.seal(secret) : "";
  }

  private values(body: OidcProviderBody) {
    checkIssuer(body.issuer);
    const scopes = body.scopes?.length ? body.scopes : defaultScopes;
    if (!scopes.includes("openid")) scopes.unshift("openid");
    return {
      name: body.name.trim(),
      issuer: body.issuer.trim(),
      client_id: body.clientId.trim(),
      scopes: scopes.join(" "),
      create_accounts: body.createAccounts ? 1 : 0,
      allowed_domains: (body.allowedDomains ?? [])
        .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
        .join(","),
      trust_unverified_email: body.trustUnverifiedEmail ? 1 : 0,
      role_claim: body.roleClaim?.trim() || null,
      role_map: body.roleMap ? JSON.stringify(body.roleMap) : null,
      enabled: body.enabled === false ? 0 : 1,
    };
  }
}
