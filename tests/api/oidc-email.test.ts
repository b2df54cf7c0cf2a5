import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcFlow } from "../support/oidc-flow.ts";
import { startIssuer, type TestIssuer } from "../support/oidc-issuer.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

// A panel of its own: its refusals would otherwise count against the address's sign-in throttle
// that oidc.test.ts's refusals already use up.
describe("single sign-on: whose e-mail address counts as verified (issue 39)", () => {
  const panel = usePanel();
  let issuer: TestIssuer;
  let admin: PanelClient;

  beforeAll(async () => {
    const callbacks = Array.from({ length: 5 }, (_, i) => `${panel().url}/auth/oidc/${i + 1}/callback`);
    issuer = await startIssuer(callbacks);
    admin = await adminClient(panel());
  });
  afterAll(async () => {
    await issuer?.close();
  });

  const { addProvider, signIn, refusedWith, signedInAs } = oidcFlow(
    panel,
    () => issuer,
    () => admin,
  );

  it("takes only a verified address to make an account or pass a domain rule; without the claim, where the administrator trusts the provider", async () => {
    const open = await addProvider({ createAccounts: true });
    refusedWith(
      (await signIn(open, { sub: "unverified", email: "unverified@corp.example", email_verified: false }))
        .res,
      "ErrOidcEmailUnverified",
    );
    // No email_verified claim at all: not proof of the address either.
    const silent = { sub: "silent", email: "silent@corp.example", email_verified: null };
    refusedWith((await signIn(open, silent)).res, "ErrOidcEmailUnverified");
    const domain = await addProvider({ createAccounts: true, allowedDomains: ["corp.example"] });
    refusedWith((await signIn(domain, { ...silent, sub: "silent-2" })).res, "ErrOidcEmailUnverified");
    // The administrator says this provider checks every address it gives.
    const trusted = await addProvider({
      createAccounts: true,
      allowedDomains: ["corp.example"],
      trustUnverifiedEmail: true,
    });
    expect(
      (await admin.get("/api/oidc-providers")).body.find((p: { id: number }) => p.id === trusted),
    ).toMatchObject({ trustUnverifiedEmail: true });
    const inside = await signIn(trusted, silent);
    expect(await signedInAs(inside.client)).toBe("silent@corp.example");
    // An explicit false is never trusted.
    refusedWith(
      (await signIn(trusted, { sub: "liar", email: "liar@corp.example", email_verified: false })).res,
      "ErrOidcEmailUnverified",
    );
  });
});
