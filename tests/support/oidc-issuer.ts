import { generateKeyPairSync, type JsonWebKey } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** Who the in-process provider signs in next: its subject and the claims its ID token carries. */
export interface IssuerAccount {
  sub: string;
  email: string;
  /** Absent: true. null: the ID token carries no email_verified claim at all. */
  email_verified?: boolean | null;
  preferred_username?: string;
  groups?: string[];
}

export interface TestIssuer {
  /** The issuer URL (http://127.0.0.1:port). */
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  /** The account the next sign-in at the provider is made as (its login page asks no one). */
  signInAs(account: IssuerAccount): void;
  /**
   * From now on the provider publishes another key under its key's id (its ID tokens are still
   * signed with its own): to the panel, a token whose signature is not the provider's.
   */
  publishOtherKey(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (node-oidc-provider) on 127.0.0.1 for tests (issue 39): one confidential
 * client whose redirect URIs are the panel's callbacks, PKCE required, ID tokens signed with its
 * own keys. Its interaction (login and consent) finishes at once as the account set by
 * `signInAs`, so a browser — or a test following redirects — goes straight back to the panel.
 */
export async function startIssuer(redirectUris: string[]): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const clientId = "outpost-panel";
  const clientSecret = "a-client-secret-for-tests-only";
  let next: IssuerAccount = { sub: "nobody", email: "nobody@example.com" };
  let otherKey = false;
  const signing = rsaKey();
  const impostor = rsaKey();
  const accounts = new Map<string, IssuerAccount>();

  const provider = new Provider(url, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    pkce: { required: () => true },
    jwks: { keys: [signing] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["preferred_username", "groups"],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-key"] },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => {
          const { email_verified, ...claims } = account;
          return email_verified === null ? claims : { ...claims, email_verified: email_verified ?? true };
        },
      };
    },
  });
  // Plain http on loopback: the provider is told it is fine.
  provider.proxy = true;
  const callback = provider.callback();

  server.on("request", async (req, res) => {
    try {
      if (otherKey && req.url?.startsWith("/jwks")) {
        res.setHeader("content-type", "application/jwk-set+json");
        res.end(JSON.stringify({ keys: [publicPart(impostor)] }));
        return;
      }
      if (req.url?.startsWith("/interaction/")) {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === "login") {
          accounts.set(next.sub, next);
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: next.sub } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = new provider.Grant({
          accountId: details.session?.accountId ?? next.sub,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
        return;
      }
      callback(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });

  return {
    url,
    port,
    clientId,
    clientSecret,
    signInAs(account) {
      next = account;
    },
    publishOtherKey(on) {
      otherKey = on;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An RSA signing key as a private JWK, under the one key id both the real and the other key use. */
function rsaKey(): JsonWebKey & { kid: string } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: "issuer-key", use: "sig", alg: "RS256" };
}

const publicPart = (key: JsonWebKey & { kid: string }) => ({
  kty: key.kty,
  n: key.n,
  e: key.e,
  kid: key.kid,
  use: "sig",
  alg: "RS256",
});
