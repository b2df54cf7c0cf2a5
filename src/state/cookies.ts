// Minimal cookie helpers; attributes per spec §7 (Path=/, SameSite=Strict, Secure on https).

export const COOKIE_PREFIX = "outpost_";
export const SCOPES_COOKIE = `${COOKIE_PREFIX}scopes`;
export const AUTH_EXPIRES_COOKIE = `${COOKIE_PREFIX}auth_expires`;
export const XSRF_COOKIE = "XSRF-TOKEN";

export function readCookie(name: string, source = document.cookie): string | undefined {
  for (const part of source.split(";")) {
    const eq = part.indexOf("=");
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (key === name) {
      const raw = eq < 0 ? "" : part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

function attributes(): string {
  return `; Path=/; SameSite=Strict${location.protocol === "https:" ? "; Secure" : ""}`;
}

export function writeCookie(name: string, value: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the scopes cookie is client-owned by design (spec §6)
  document.cookie = `${name}=${encodeURIComponent(value)}${attributes()}`;
}

export function deleteCookie(name: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see writeCookie
  document.cookie = `${name}=; Max-Age=0${attributes()}`;
}
