import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
import { requestPath } from "../../http/request-path.ts";
import type { Activity, ActivityActor } from "../../panel/activity.ts";
import type { BeforeReads } from "../../panel/activity-before.ts";
import { type ActionRule, activityActions } from "./activity-actions.ts";
import { isSecretName, withoutSecrets } from "./activity-details.ts";
import { requestSecretFields, type SecretFields, withoutMarkedSecrets } from "./activity-secrets.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Who a sign-in signed in (set where the session is issued): the activity log's actor. */
    activityActor?: ActivityActor;
  }
}

const guardedPrefixes = ["/api", "/auth", "/oauth2"];
const reads = new Set(["GET", "HEAD", "OPTIONS"]);

/** A write route nobody named in activity-actions.ts: still recorded, by its method and pattern. */
const unnamed = (method: string, url: string): ActionRule => ({
  action: "api.write",
  details: () => ({ route: `${method} ${url}` }),
});

/**
 * The activity log's route hook: every route under /api, /auth and /oauth2
 * that may change something (any method but GET and HEAD) gets an onSend
 * hook when it is added, with its action looked up once. So no write route
 * can skip the log, and no route has code of its own for it.
 *
 * What is recorded: a change done (2xx/3xx); a change refused for want of
 * a scope or login (401/403) when the caller is known; every sign-in, done
 * or failed (`auth.login.failed`). Other failures (bad input, a node down)
 * changed nothing and are left out, and so are anonymous refusals, which
 * anyone could send by the million. The entry is written before the answer
 * goes out, so whoever reads the log next sees it.
 */
export function installActivityLog(app: FastifyInstance, activity: Activity, read: BeforeReads): void {
  // What a rule's `before` read for a request, until its answer is recorded.
  const befores = new WeakMap<FastifyRequest, Record<string, unknown>>();
  app.addHook("onRoute", (route) => {
    const guarded = guardedPrefixes.some((p) => route.url === p || route.url.startsWith(`${p}/`));
    const method = [route.method].flat().find((m) => !reads.has(m));
    if (!guarded || method === undefined) return;
    const rule = activityActions[`${method} ${route.url}`] ?? unnamed(method, route.url);
    if (rule.skip) return;
    const own = route.onSend === undefined ? [] : [route.onSend].flat();
    // The fields its schemas mark secret, found once: their values are never kept, whatever their names.
    const secrets = requestSecretFields(route.schema);
    route.onSend = [...own, recorder(activity, rule, route.url, befores, secrets)];
    const before = rule.before;
    if (before) {
      // After the guard and the schema, just before the change: a refused caller reads nothing.
      const ownPre = route.preHandler === undefined ? [] : [route.preHandler].flat();
      route.preHandler = [
        ...ownPre,
        async function readBefore(request: FastifyRequest) {
          try {
            const found = await before(request, read);
            if (found && Object.keys(found).length > 0) befores.set(request, found);
          } catch {
            // Nothing to compare with (a server or user not found): the change says so itself.
          }
        },
      ];
    }
  });
}

function recorder(
  activity: Activity,
  rule: ActionRule,
  url: string,
  befores: WeakMap<FastifyRequest, Record<string, unknown>>,
  secrets: SecretFields | undefined,
): onSendHookHandler {
  const onServer = url.startsWith("/api/servers/:id");
  const onFile = /^\/api\/servers\/:id\/(file|archive|extract)\b/.test(url);
  return async function recordActivity(request, reply, payload) {
    const ok = reply.statusCode < 400;
    const principal = request.principal;
    let actor = request.activityActor;
    if (!actor && principal)
      actor = {
        kind: principal.clientId ? "client" : "user",
        userId: principal.user.id,
        name: principal.user.username,
        clientId: principal.clientId ?? undefined,
      };
    if (rule.signIn) {
      // A password step still waiting for its code is not a sign-in yet.
      if (ok && rule.signIn === "session" && !request.activityActor) return payload;
      actor ??= claimedActor(request);
    } else if (!actor || (!ok && reply.statusCode !== 401 && reply.statusCode !== 403)) {
      return payload;
    }
    const action = typeof rule.action === "string" ? rule.action : rule.action(request);
    if (action === undefined) return payload;
    const params = (request.params ?? {}) as Record<string, string>;
    const unmarked = (value: Record<string, unknown>) =>
      withoutMarkedSecrets(value, secrets) as Record<string, unknown>;
    const found = ok ? befores.get(request) : undefined;
    const before = found && unmarked(found);
    const sent = unmarked(rule.details ? rule.details(request) : bodyAndQuery(request));
    // A refused attempt keeps what was tried by name only: its values may be anything (a hidden
    // variable's, a password typed into the wrong field), and nothing came of them. What the
    // schema marks secret is gone already; a field whose name says secret goes next.
    const details = withoutSecrets(
      ok || rule.namesOnly ? { ...sent, ...(before ? { before } : {}) } : { fields: fieldNames(sent) },
    );
    if (!ok) details.error = errorCode(payload, reply);
    await activity.record({
      actor,
      address: request.ip,
      action: ok || !rule.signIn ? action : `${action}.failed`,
      ok,
      serverId: onServer ? params.id : undefined,
      subject: onFile ? `/${requestPath(request).replace(/^\/+/, "")}` : subjectOf(url, params),
      details,
    });
    return payload;
  };
}

/** The name a sign-in gave (never its password): an e-mail, a username, an OAuth2 client's id. */
function claimedActor(request: FastifyRequest): ActivityActor {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string).slice(0, 255) : "");
  const clientId = text("client_id");
  if (clientId) return { kind: "client", name: clientId, clientId };
  return { kind: "user", name: text("email") || text("username") };
}

/** The names of what a request sent: its fields and its query's, never their values. */
function fieldNames(sent: Record<string, unknown>): string[] {
  const { query, ...fields } = sent;
  const queryNames = query && typeof query === "object" ? Object.keys(query).map((k) => `query.${k}`) : [];
  return [...Object.keys(fields), ...queryNames].sort();
}

function bodyAndQuery(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  const plain = body && typeof body === "object" && !Buffer.isBuffer(body) && !("pipe" in body);
  const query = (request.query ?? {}) as Record<string, unknown>;
  return { ...(Object.keys(query).length > 0 ? { query } : {}), ...(plain ? body : {}) };
}

/** `user:3` for /api/users/:id, `node:2` for /api/nodes/:id, else each other parameter by name. */
function subjectOf(url: string, params: Record<string, string>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (isSecretName(name)) continue;
    if (name === "id") {
      if (url.startsWith("/api/users/:id")) parts.push(`user:${value}`);
      else if (url.startsWith("/api/nodes/:id")) parts.push(`node:${value}`);
      continue;
    }
    parts.push(`${name}:${value}`);
  }
  return parts.join(" ");
}

/** The error code of a refused call, from the envelope already serialised. */
function errorCode(payload: unknown, reply: FastifyReply): string {
  const text = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString() : "";
  const code = /"code":"([A-Za-z0-9_]+)"/.exec(text)?.[1] ?? /"error":"([a-z_]+)"/.exec(text)?.[1];
  return code ?? `HTTP ${reply.statusCode}`;
}
