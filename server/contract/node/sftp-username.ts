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
