// Bearer token for API-client mode (client credentials, spec §4). The browser session normally
// uses the HttpOnly cookie instead and never sees a token.
const TOKEN_KEY = "outpost_token";
let memoryToken: string | null = null;

export function getToken(): string | null {
  if (memoryToken) return memoryToken;
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null, persist = false): void {
  memoryToken = token;
  try {
    if (token && persist) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // memory only
  }
}
