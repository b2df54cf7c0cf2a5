/** What the SFTP section shows: the login the node expects (reference §8) and a command that uses it. */

/** `<email>#<serverId>`, the user name every node's SFTP server takes. */
export function sftpUsername(email: string, serverId: string): string {
  return `${email}#${serverId}`;
}

/** A word for a POSIX shell: single-quoted when it holds anything a shell (zsh's `#` too) would read. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `sftp -P <port> '<user>@<host>'`, an IPv6 host in brackets as sftp wants it. */
export function sftpCommand(username: string, host: string, port: number): string {
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `sftp -P ${port} ${shellWord(`${username}@${shownHost}`)}`;
}
