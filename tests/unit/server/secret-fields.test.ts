import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { redacted } from "../../../server/api/pipeline/activity-details.ts";
import {
  requestSecretFields,
  secretFieldsOf,
  withoutMarkedSecrets,
} from "../../../server/api/pipeline/activity-secrets.ts";
import { secret } from "../../../server/contract/api/secret.ts";
import { declaredAppRoutes } from "../../support/scratch-app.ts";

/** A field whose name says it may hold a secret. */
const secretLooking = /pass|secret|key|token/i;

/**
 * Fields so named that hold none: identifiers and public halves. Each entry is "METHOD url field.path".
 */
const notSecret = new Set([
  // An S3 access key's id names the key, as a username does; the secret is secretAccessKey.
  "PUT /api/nodes/:id backupTarget.accessKeyId",
  // An SSH public key, and a push subscription's (inside the subscription, which is secret anyway).
  "POST /api/self/ssh-keys publicKey",
]);

/** Every field path of a schema that is not marked secret, with the marked ones left out. */
function unmarkedFields(schema: unknown, prefix = "", depth = 0): string[] {
  if (schema === null || typeof schema !== "object" || depth > 8) return [];
  const node = schema as Record<string, unknown>;
  if (node["x-secret"] === true) return [];
  const out: string[] = [];
  if (node.properties && typeof node.properties === "object")
    for (const [field, value] of Object.entries(node.properties as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${field}` : field;
      if ((value as Record<string, unknown>)?.["x-secret"] !== true) out.push(path);
      out.push(...unmarkedFields(value, path, depth + 1));
    }
  for (const list of [node.anyOf, node.oneOf, node.allOf, [node.items]])
    if (Array.isArray(list)) for (const item of list) out.push(...unmarkedFields(item, prefix, depth + 1));
  return out;
}

describe("secret fields of the contract", () => {
  it("are marked in every route's body and query, whatever route they are on", async () => {
    const routes = await declaredAppRoutes();
    const bodies = routes.filter((r) => r.schema?.body !== undefined);
    // The walk found the schemas (a login body at least), so the check below checks something.
    expect(bodies.some((r) => r.url === "/auth/login")).toBe(true);
    const unmarked = new Set<string>();
    for (const route of routes)
      for (const part of [route.schema?.body, route.schema?.querystring])
        for (const path of unmarkedFields(part)) {
          const name = `${route.method} ${route.url} ${path}`;
          if (secretLooking.test(path.split(".").at(-1) ?? "") && !notSecret.has(name)) unmarked.add(name);
        }
    expect([...unmarked].sort()).toEqual([]);
  });

  it("the allowlist names only fields that are there", async () => {
    const routes = await declaredAppRoutes();
    const present = new Set(
      routes.flatMap((r) =>
        [r.schema?.body, r.schema?.querystring].flatMap((part) =>
          unmarkedFields(part).map((path) => `${r.method} ${r.url} ${path}`),
        ),
      ),
    );
    expect([...notSecret].filter((name) => !present.has(name))).toEqual([]);
  });

  it("a mark keeps the field optional and redacts it at any depth, whatever its name", () => {
    const schema = Type.Object({
      name: Type.String(),
      hook: Type.Optional(secret(Type.String())),
      target: Type.Union([
        Type.Null(),
        Type.Object({ region: Type.String(), hidden: Type.Optional(secret(Type.String())) }),
      ]),
      list: Type.Array(Type.Object({ value: secret(Type.String()), label: Type.String() })),
    });
    expect(schema.required).toEqual(["name", "target", "list"]);
    const fields = requestSecretFields({
      body: schema,
      querystring: Type.Object({ q: secret(Type.String()) }),
    });
    expect(fields).toEqual({
      hook: true,
      target: { hidden: true },
      list: { value: true },
      query: { q: true },
    });
    expect(
      withoutMarkedSecrets(
        {
          name: "n",
          hook: "https://h/T0KEN",
          target: { region: "eu", hidden: "h" },
          list: [{ value: "v", label: "l" }],
          query: { q: "x" },
        },
        fields,
      ),
    ).toEqual({
      name: "n",
      hook: redacted,
      target: { region: "eu", hidden: redacted },
      list: [{ value: redacted, label: "l" }],
      query: { q: redacted },
    });
    expect(secretFieldsOf(Type.Object({ plain: Type.String() }))).toBeUndefined();
  });
});
