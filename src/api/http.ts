import { ofetch } from "ofetch";

// The app's HTTP library (ofetch, with ufo and destr), loaded by the API client on its first call
// (src/api/client.ts) rather than with the page: the login page paints without it, and a sign-in
// fetches it with the chunk the first signed-in screen needs anyway (vite.config.ts, "shared").
// Same origin with cookies, no timeout, no retries; the client adds the headers.

export const http = ofetch.create({ credentials: "same-origin", retry: 0 });
