// The panel must not be hosted on GitHub Codespaces' forwarded-port hosts (reference §11).
export function isBlockedHost(host: string): boolean {
  return /(^|\.)app\.github\.dev$/i.test(host.split(":")[0]);
}
