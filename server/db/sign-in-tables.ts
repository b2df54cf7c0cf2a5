import type { Generated } from "kysely";

// The tables of the sign-in methods besides the password (migration 0027, issue 39); tables.ts
// lists them in the Database with the rest.

/** A public key its owner signs in to SFTP with; fingerprint is `SHA256:` and unpadded base64. */
export interface SshKeyTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The key's type as OpenSSH names it (ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa). */
  algorithm: string;
  bits: number;
  fingerprint: string;
  /** `<type> <base64>`, without the comment. */
  public_key: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn credential; ids and the COSE public key are base64url. */
export interface PasskeyTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  credential_id: string;
  public_key: string;
  counter: number;
  /** Comma-joined transports the authenticator named. */
  transports: Generated<string>;
  created_at: number;
  last_used_at: number | null;
}

export interface OidcProviderTable {
  id: Generated<number>;
  name: string;
  issuer: string;
  client_id: string;
  /** Sealed (secret-box.ts); never answered. */
  client_secret: string;
  /** Space-joined. */
  scopes: string;
  create_accounts: number;
  /** Comma-joined, lower case; '' allows every domain. */
  allowed_domains: string;
  role_claim: string | null;
  /** JSON object: claim value → role id. */
  role_map: string | null;
  enabled: Generated<number>;
  /** 1: an address the ID token does not mark (no email_verified) counts as verified. */
  trust_unverified_email: Generated<number>;
  created_at: number;
}

export interface OidcLinkTable {
  id: Generated<number>;
  user_id: number;
  provider_id: number;
  subject: string;
  email: string;
  /** Comma-joined role ids the role claim mapped to at the last sign-in. */
  mapped_roles: Generated<string>;
  created_at: number;
  last_used_at: number | null;
}

/** A sign-in step waiting on the browser, under the SHA-256 of the key its cookie holds. */
export interface SignInChallengeTable {
  key_hash: string;
  purpose: string;
  user_id: number | null;
  /** JSON. */
  payload: string;
  expires_at: number;
}
