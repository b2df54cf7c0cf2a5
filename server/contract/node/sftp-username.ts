/**
 * An SFTP user name, `<email>#<serverId>` (reference §8), split at the last
 * `#` (an e-mail's local part may hold one); undefined when either half is
 * missing.
 */
export function parseSftpUsername(username: string): { email: string; serverId: string } | undefined {
  const at = username.lastIndexOf("#");
  if (at <= 0 || at === username.length - 1) return undefined;
  return { email: username.slice(0, at), serverId: username.slice(at + 1) };
}

/**
 * The grant a node asks the panel's /oauth2/token with for an SFTP sign-in by SSH key (Outpost's
 * own, beside the reference's password grant): `public_key` is the key as an OpenSSH line whose
 * signature the node has checked, or which the client only offered when `probe` is 1.
 */
export const sftpKeyGrant = "urn:outpost:params:oauth:grant-type:sftp-key";
