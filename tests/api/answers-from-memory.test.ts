import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { newUser } from "../support/expect-api.ts";
import type { PanelClient as Client } from "../support/http-client.ts";
import { adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

/**
 * Sessions and the big lists are answered from memory once read (on SQLite and PostgreSQL).
 * Whatever ends a session or changes what a list shows must be in force on
 * the very next call, even when that call's answer was kept.
 */
describe("answers kept in memory", () => {
  const panel = usePanel();
  let api: Client;

  const userWith = async (tag: string, scopes: string[]) => {
    const user = newUser(tag);
    const res = await api.post("/api/users", user);
    expect(res.status, res.text).toBe(200);
    expect((await api.put(`/api/users/${res.body.id}/perms`, { scopes })).status).toBe(204);
    const client = new PanelClient(panel().url);
    expect((await client.login(user.email, user.password)).status).toBe(200);
    return { client, id: res.body.id as number };
  };

  beforeAll(async () => {
    api = await adminClient(panel());
  });

  it("refuses a session on the next call after logout, though it was just used", async () => {
    const { client } = await userWith("logout", ["login", "users.info.search"]);
    // The token itself, sent again after logout (the client drops the cleared cookie).
    const token = client.cookies.get("outpost_auth") as string;
    const replay = new PanelClient(panel().url);
    for (let i = 0; i < 3; i++) expect((await replay.get("/api/self", { bearer: token })).status).toBe(200);
    expect((await replay.get("/api/users", { bearer: token })).status).toBe(200);
    expect((await client.post("/auth/logout")).status).toBe(204);
    expect((await replay.get("/api/self", { bearer: token })).status).toBe(401);
    expect((await replay.get("/api/users", { bearer: token })).status).toBe(401);
  });

  it("refuses a deleted user's session and a removed scope on the next call", async () => {
    const kept = await userWith("scoped", ["login", "users.info.search", "nodes.view"]);
    const gone = await userWith("deleted", ["login", "nodes.view"]);
    for (const { client } of [kept, gone]) {
      expect((await client.get("/api/nodes")).status).toBe(200);
      expect((await client.get("/api/nodes")).status).toBe(200);
    }
    expect((await kept.client.get("/api/users")).status).toBe(200);
    expect((await api.put(`/api/users/${kept.id}/perms`, { scopes: ["login"] })).status).toBe(204);
    expect((await kept.client.get("/api/users")).status).toBe(403);
    expect((await kept.client.get("/api/nodes")).status).toBe(403);
    expect((await api.delete(`/api/users/${gone.id}`)).status).toBe(204);
    expect((await gone.client.get("/api/nodes")).status).toBe(401);
  });

  it("lists a change at once, and never hands a kept list to a caller without the scope", async () => {
    const first = await api.get("/api/users?limit=5");
    expect((await api.get("/api/users?limit=5")).text).toBe(first.text);
    const total = first.body.paging.total as number;
    const added = newUser("listed");
    expect((await api.post("/api/users", added)).status).toBe(200);
    const after = await api.get("/api/users?limit=5");
    expect(after.body.paging.total).toBe(total + 1);
    const found = await api.get(`/api/users?username=${added.username}`);
    expect(found.body.users.map((u: { username: string }) => u.username)).toEqual([added.username]);

    const { client } = await userWith("noscope", ["login"]);
    expect((await client.get("/api/users?limit=5")).status).toBe(403);
    expect((await client.get("/api/nodes")).status).toBe(403);
    // Without server scopes a user sees none of the servers the administrator's kept list shows.
    await api.get("/api/servers");
    const own = await client.get("/api/servers");
    expect(own.status).toBe(200);
    expect(own.body.servers).toEqual([]);
  });

  it("keeps a list's compressed copy that decompresses to the very answer, and drops it on a change", async () => {
    // Raw bytes: fetch would decompress and hide the encoding.
    const raw = (path: string, acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = {
          cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        };
        if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
        http
          .get(`${panel().url}${path}`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const decode = { br: brotliDecompressSync, gzip: gunzipSync };
    // Enough users that the page is over the 1 KiB compression threshold.
    for (let i = 0; i < 12; i++)
      expect((await api.post("/api/users", newUser(`packed${i}`))).status).toBe(200);
    const path = "/api/users?limit=50";
    const plain = await raw(path);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    // It could have been compressed: a cache must not hand it to a client that asks for br.
    expect(plain.headers.vary).toBe("accept-encoding");
    expect(plain.headers["content-length"]).toBe(String(plain.body.length));
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [header, encoding] of [
      ["br, gzip", "br"],
      ["gzip, deflate", "gzip"],
      ["gzip;q=1, br;q=0.5", "gzip"],
      ["br;q=0, gzip", "gzip"],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await raw(path, header);
        expect(res.headers["content-encoding"], header).toBe(encoding);
        expect(res.headers.vary).toBe("accept-encoding");
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(res.headers["x-content-type-options"]).toBe("nosniff");
        expect(decode[encoding](res.body).toString()).toBe(plain.body.toString());
      }
    }
    expect((await raw(path, "identity")).body.toString()).toBe(plain.body.toString());
    expect((await api.post("/api/users", newUser("packedlast"))).status).toBe(200);
    const changed = await raw(path, "br");
    const after = JSON.parse(brotliDecompressSync(changed.body).toString());
    expect(after.paging.total).toBe(JSON.parse(plain.body.toString()).paging.total + 1);
  });
});
