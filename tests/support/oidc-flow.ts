import { expect } from "vitest";
import type { Answer } from "./http-client.ts";
import type { IssuerAccount, TestIssuer } from "./oidc-issuer.ts";
import type { PanelProcess } from "./panel-process.ts";
import { PanelClient } from "./test-panel.ts";

/** A browser's trips through the in-process OpenID provider and back to the panel, for API tests. */
export function oidcFlow(panel: () => PanelProcess, issuer: () => TestIssuer, admin: () => PanelClient) {
  async function addProvider(fields: Record<string, unknown> = {}): Promise<number> {
    const res = await admin().post("/api/oidc-providers", {
      name: "Test SSO",
      issuer: issuer().url,
      clientId: issuer().clientId,
      clientSecret: issuer().clientSecret,
      ...fields,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  }

  /**
   * The browser's round trip: from the provider's authorization URL through its (self-finishing)
   * login and consent, back to the panel's callback, asked with the panel client's cookies.
   */
  async function throughProvider(authUrl: string, client: PanelClient, tamper?: (callback: URL) => void) {
    const browser = new PanelClient("");
    let url = authUrl;
    for (let hop = 0; hop < 12; hop++) {
      if (url.startsWith(`${panel().url}/`)) {
        const back = new URL(url);
        tamper?.(back);
        return client.get(back.pathname + back.search);
      }
      const res = await browser.get(url);
      const location = res.headers.get("location");
      if (!location)
        throw new Error(`the provider stopped at ${url}: ${res.status} ${res.text.slice(0, 300)}`);
      url = new URL(location, url).href;
    }
    throw new Error("too many redirects");
  }

  /** Signs in with the provider as `account` on a fresh client; `editAuth` may change the authorization URL. */
  async function signIn(
    providerId: number,
    account: IssuerAccount,
    opts: { editAuth?: (url: URL) => void; tamper?: (callback: URL) => void; client?: PanelClient } = {},
  ): Promise<{ client: PanelClient; res: Answer<unknown> }> {
    const client = opts.client ?? new PanelClient(panel().url);
    await client.prime();
    issuer().signInAs(account);
    const start = await client.get(`/auth/oidc/${providerId}`);
    expect(start.status, start.text).toBe(302);
    const location = start.headers.get("location") ?? "";
    if (!location.startsWith(issuer().url)) return { client, res: start };
    const auth = new URL(location);
    opts.editAuth?.(auth);
    return { client, res: await throughProvider(auth.href, client, opts.tamper) };
  }

  const refusedWith = (res: Answer<unknown>, code: string) => {
    expect(res.status, res.text).toBe(302);
    expect(new URL(res.headers.get("location") ?? "", panel().url).searchParams.get("oidcError")).toBe(code);
    expect(res.headers.get("location")).toMatch(/^\/auth\/login\?/);
  };

  const signedInAs = async (client: PanelClient) => (await client.get("/api/self")).body?.email;

  return { addProvider, throughProvider, signIn, refusedWith, signedInAs };
}
