/** The little of node-oidc-provider (a real OpenID provider for tests; it ships no types) the tests use. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Handler = (req: IncomingMessage, res: ServerResponse) => void;

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Interaction {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
    session?: { accountId: string };
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Record<string, unknown>[];
        pkce?: { required: () => boolean };
        /** The signing keys, as private JWKs (without them it makes development-only ones). */
        jwks?: { keys: Record<string, unknown>[] };
        claims?: Record<string, string[]>;
        features?: Record<string, unknown>;
        interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string };
        cookies?: { keys: string[] };
        findAccount(ctx: unknown, sub: string): Promise<Account | undefined>;
      },
    );
    proxy: boolean;
    callback(): Handler;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (init: {
      accountId: string;
      clientId: string;
    }) => Grant;
  }
}
