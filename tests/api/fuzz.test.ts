import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { serverScopes } from "../../server/contract/scopes.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { rawRequest } from "../support/file-requests.ts";
import { PanelClient } from "../support/http-client.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { adminClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Schema-aware fuzzing of the whole API: every operation of the panel's own
 * route table (its OpenAPI document, made from the registered routes and
 * their TypeBox schemas) gets generated requests — wrong types, huge and
 * negative numbers, odd and deep JSON, bad path parameters, odd encodings,
 * big strings — as an anonymous caller and as an ordinary user who holds
 * every scope on one server. No answer may be a 5xx or carry a stack trace or
 * a path of the machine. The PRNG is seeded (FUZZ_SEED), so a failure
 * reproduces; the count is bounded (FUZZ_PER_OPERATION variants each).
 */

type Json = Record<string, any>;

const seed = Number(process.env.FUZZ_SEED ?? 20261125);
const perOperation = Number(process.env.FUZZ_PER_OPERATION ?? 12);

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function prng(s: number) {
  let a = s >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const oddStrings = [
  "",
  " ",
  "a".repeat(5000),
  "é".repeat(300),
  "😀💥",
  "\u0000",
  "\uFEFFx",
  "../../../../etc/passwd",
  "..\\..\\windows",
  "%00",
  "%2e%2e%2f",
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "<script>alert(1)</script>",
  "${7*7}",
  "{{7*7}}",
  "\r\nX-Injected: 1",
  "null",
  "true",
  "-1",
  "1e309",
  "NaN",
  "0x10",
  "__proto__",
  "constructor",
];
const oddNumbers = [0, -1, -2147483649, 2147483648, 9007199254740992, 1e308, -1e308, 0.5, -0.0, 1e-320];

function oddValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 6 : 9)) {
    case 0:
      return rng.pick(oddStrings);
    case 1:
      return rng.pick(oddNumbers);
    case 2:
      return null;
    case 3:
      return rng.next() < 0.5;
    case 4:
      return "x".repeat(rng.pick([1, 255, 256, 4097, 70_000]));
    case 5:
      return rng.int(100) - 50;
    case 6:
      return Array.from({ length: rng.int(4) }, () => oddValue(rng, depth + 1));
    case 7:
      return {
        __proto__x: 1,
        constructor: { prototype: { polluted: true } },
        [rng.pick(oddStrings)]: oddValue(rng, depth + 1),
      };
    default:
      return nested(rng.int(60) + 1);
  }
}

/** JSON nested `levels` deep (the panel caps depth; deeper than its cap must answer 400, not 500). */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A value that fits the schema, mostly: the mutations below then break one part of it. */
function fromSchema(schema: Json | undefined, rng: Rng, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.anyOf) return fromSchema(rng.pick(schema.anyOf), rng, depth + 1);
  if (schema.oneOf) return fromSchema(rng.pick(schema.oneOf), rng, depth + 1);
  if (schema.enum) return rng.pick(schema.enum);
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case "string":
      return "x".repeat(Math.max(1, Math.min(schema.minLength ?? 1, 20)));
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "array":
      return [fromSchema(schema.items, rng, depth + 1)];
    case "object": {
      const out: Json = {};
      for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
        if ((schema.required ?? []).includes(name) || rng.next() < 0.5)
          out[name] = fromSchema(prop, rng, depth + 1);
      }
      return out;
    }
    case "null":
      return null;
    default:
      return {};
  }
}

/** Breaks a well-formed value in one place: a wrong type, an odd value, a missing or an extra field. */
function mutate(value: unknown, rng: Rng): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && rng.next() < 0.8) {
    const out: Json = { ...(value as Json) };
    const keys = Object.keys(out);
    const roll = rng.int(3);
    if (roll === 0 && keys.length) delete out[rng.pick(keys)];
    else if (roll === 1 && keys.length) {
      const key = rng.pick(keys);
      out[key] = rng.next() < 0.3 ? mutate(out[key], rng) : oddValue(rng);
    } else out[rng.pick(oddStrings)] = oddValue(rng);
    return out;
  }
  return oddValue(rng);
}

const oddPathValues = [
  "0",
  "-1",
  "1",
  "99999999999999999999",
  "1.5",
  "1e3",
  "abc",
  "%00",
  "%2e%2e",
  "..%2f..%2fetc%2fpasswd",
  "%E0%A4%A",
  "%ZZ",
  "%F0%9F%98%80",
  encodeURIComponent("é".repeat(40)),
  "a".repeat(600),
  "x;y",
  "null",
  "__proto__",
];

interface Request {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

function requestsFor(method: string, template: string, op: Json, serverId: string, rng: Rng): Request[] {
  const out: Request[] = [];
  const bodySchema = op.requestBody?.content?.["application/json"]?.schema as Json | undefined;
  const query = ((op.parameters ?? []) as Json[]).filter((p) => p.in === "query");
  for (let i = 0; i < perOperation; i++) {
    const pathValue = (name: string) => {
      if (name === "id" || name === "serverId") return rng.next() < 0.6 ? serverId : rng.pick(oddPathValues);
      if (name === "path") return rng.pick(["x", "a/b/c", "%2e%2e/%2e%2e/x", "a".repeat(300), "."]);
      return rng.pick(oddPathValues);
    };
    let p = template.replace(/\{([^}]+)\}/g, (_, name: string) => pathValue(name));
    if (query.length && rng.next() < 0.7) {
      const params = query
        .filter(() => rng.next() < 0.7)
        .map(
          (q) =>
            `${encodeURIComponent(q.name)}=${encodeURIComponent(String(rng.next() < 0.5 ? fromSchema(q.schema, rng) : oddValue(rng)))}`,
        );
      if (rng.next() < 0.2)
        params.push(`${rng.pick(["a", "a[]", "__proto__[x]", "%ZZ"])}=${rng.pick(["1", "%ZZ", ""])}`);
      if (params.length) p += `?${params.join("&")}`;
    }
    const request: Request = { method, path: p };
    if (method !== "GET" && method !== "HEAD") {
      const roll = rng.next();
      if (roll < 0.6) {
        request.body = JSON.stringify(mutate(fromSchema(bodySchema, rng), rng));
        request.contentType = "application/json";
      } else if (roll < 0.7) {
        request.body = JSON.stringify(fromSchema(bodySchema, rng));
        request.contentType = "application/json";
      } else if (roll < 0.8) {
        request.body = rng.pick([
          '{"a":',
          "[1,2",
          "\u0000",
          "{}".repeat(1000),
          '{"id":99999999999999999999999,"n":-1e999}',
          '{"a":1,"a":2}',
          "nul",
          "",
        ]);
        request.contentType = "application/json";
      } else if (roll < 0.9) {
        request.body = rng.pick(["a=1&b=2", "<x/>", "\xff\xfe"]);
        request.contentType = rng.pick([
          "application/x-www-form-urlencoded",
          "text/plain",
          "application/xml",
          "application/json; charset=latin1",
        ]);
      }
    }
    out.push(request);
  }
  return out;
}

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** What an answer must never hold: a stack frame, or a path of this machine. */
function leaks(text: string, dataDir: string): string | undefined {
  if (/\bat [^\n]*:\d+:\d+/.test(text)) return "a stack frame";
  for (const p of [dataDir, repoRoot, path.join(os.tmpdir(), "outpost-"), "node_modules"])
    if (text.includes(p)) return `the path ${p}`;
  return undefined;
}

describe("fuzzing the route table", () => {
  const panel = usePanel();
  const serverId = "f022ed01";
  const operations: [string, string, Json][] = [];
  let user: PanelClient;

  beforeAll(async () => {
    const admin = await adminClient(panel());
    const created = await admin.put(`/api/servers/${serverId}`, { ...echoDefinition(), node: 0 });
    expect(created.status, created.text).toBe(200);
    const doc = (await admin.get("/api/openapi.json")).body as Json;
    for (const [template, methods] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(methods))
        operations.push([method.toUpperCase(), template, op]);
    }
    const account = newUser("fuzzer");
    user = await registeredClient(panel(), account);
    await setServerScopes(
      panel(),
      account.email,
      serverId,
      serverScopes.filter((s) => s !== "server.delete"),
    );
  });

  it("finds the operations (the table is not empty)", () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  for (const who of ["anonymous", "a signed-in user"] as const) {
    it(`answers no 5xx and leaks nothing, ${who}`, async () => {
      const rng = prng(seed + (who === "anonymous" ? 0 : 1));
      const client = who === "anonymous" ? new PanelClient(panel().url) : user;
      if (who === "anonymous") await client.prime();
      const failures: string[] = [];
      // Generated first, in order, so the seed alone fixes every request; then sent four at a time.
      const requests: Request[] = [];
      for (const [method, template, op] of operations) {
        // Signing out or ending every session would leave the rest of the run anonymous.
        if (/logout|\/sessions?$/.test(template) && method !== "GET") continue;
        requests.push(...requestsFor(method, template, op, serverId, rng));
      }
      let sent = 0;
      const send = async (r: Request) => {
        // On the wire as generated: fetch would resolve the `%2e%2e` segments to another path first.
        let res: Awaited<ReturnType<typeof rawRequest>>;
        try {
          res = await rawRequest(client, r.method, r.path, {
            headers: { ...(r.contentType ? { "content-type": r.contentType } : {}), origin: panel().url },
            body: r.body,
          });
        } catch (e) {
          throw new Error(`${r.method} ${r.path.slice(0, 200)} [${(r.body ?? "").slice(0, 80)}]: ${e}`);
        }
        const text = res.text;
        sent++;
        const leak = leaks(text, panel().dataDir);
        if (res.status >= 500 || leak)
          failures.push(
            `${r.method} ${r.path.slice(0, 200)} [${(r.body ?? "").slice(0, 120)}] → ${res.status} ${leak ?? ""} ${text.slice(0, 200)}`,
          );
      };
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < requests.length) await send(requests[next++]);
        }),
      );
      console.log(`fuzz (${who}, seed ${seed}): ${sent} requests over ${operations.length} operations`);
      expect(sent).toBeGreaterThan(operations.length * perOperation * 0.9);
      expect(failures, `seed ${seed}`).toEqual([]);
    }, 120_000);
  }
});
