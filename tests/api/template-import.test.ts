import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "../support/expect-api.ts";
import { adminClient, type PanelClient as Client, PanelClient, usePanel } from "../support/test-panel.ts";

/**
 * The Templates page's import by URL (issue 28): the panel fetches the file and answers its
 * text. Administrators may fetch from any address (a mirror on the site's network); anyone else
 * with templates.local.edit from public addresses only, also after DNS resolution, with one
 * answer for every failure. The size is capped and the answer is never a stack trace.
 */
const eggFile = path.resolve(
  import.meta.dirname,
  "../fixtures/pelican-eggs/parkervcp-eggs-2024/game_eggs/minecraft/java/paper/egg-paper.json",
);

describe("POST /api/templates/import", () => {
  const panel = usePanel();
  let admin: Client;
  let editor: Client;
  let viewer: Client;
  let site: http.Server;
  let base: string;
  const requests: string[] = [];

  const login = async (name: string, scopes: string[]) => {
    const user = newUser(name);
    const made = await admin.post("/api/users", user);
    expect(made.status, made.text).toBe(200);
    expect((await admin.put(`/api/users/${made.body.id}/perms`, { scopes })).status).toBe(204);
    const client = new PanelClient(panel().url);
    expect((await client.login(user.email, user.password)).status).toBe(200);
    return client;
  };

  beforeAll(async () => {
    admin = await adminClient(panel());
    editor = await login("importer", ["login", "templates.view", "templates.local.edit"]);
    viewer = await login("looker", ["login", "templates.view"]);
    site = http.createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/egg.json") res.end(fs.readFileSync(eggFile));
      else if (req.url === "/moved") res.writeHead(302, { location: "/egg.json" }).end();
      // Larger than a template file may be, sent without a length.
      else if (req.url === "/huge") {
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent < 40 && res.write(chunk)) sent++;
          if (sent >= 40) res.end();
          else res.once("drain", more);
        };
        more();
      } else res.writeHead(404).end("no");
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => site?.close(r));
  });

  const fetchUrl = (client: Client, url: string) => client.post("/api/templates/import", { url });

  it("answers an administrator the file's text, following a redirect", async () => {
    const res = await fetchUrl(admin, `${base}/egg.json`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.text).toBe(fs.readFileSync(eggFile, "utf8"));
    const moved = await fetchUrl(admin, `${base}/moved`);
    expect(moved.status).toBe(200);
    expect(JSON.parse(moved.body.text).name).toBe("Paper");
  });

  it("says why an administrator's fetch failed, and caps the size", async () => {
    const missing = await fetchUrl(admin, `${base}/missing.json`);
    expect(missing.status).toBe(502);
    expect(missing.body.error).toEqual({
      code: "ErrImportFailed",
      msg: "the file could not be fetched: ${reason}",
      metadata: { reason: "HTTP 404" },
    });
    const huge = await fetchUrl(admin, `${base}/huge`);
    expect(huge.status).toBe(502);
    expect(huge.body.error.metadata.reason).toBe("it is larger than 1 MiB");
  });

  it("fetches for a non-administrator from public addresses only, one answer for every refusal", async () => {
    const port = new URL(base).port;
    const before = requests.length;
    const answers = new Set<string>();
    for (const url of [
      `${base}/egg.json`,
      `http://localhost:${port}/egg.json`,
      `http://[::1]:${port}/egg.json`,
      `http://2130706433:${port}/egg.json`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/egg.json",
      "http://no-such-host.invalid/egg.json",
    ]) {
      const res = await fetchUrl(editor, url);
      expect(res.status, url).toBe(502);
      answers.add(JSON.stringify(res.body.error));
    }
    expect([...answers].map((a) => JSON.parse(a))).toEqual([
      {
        code: "ErrImportFailed",
        msg: "the file could not be fetched: ${reason}",
        metadata: { reason: "it could not be reached" },
      },
    ]);
    // Nothing reached the panel's own host.
    expect(requests.length).toBe(before);
  });

  it("takes http(s) addresses only and needs templates.local.edit", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/egg.json", "not a url"]) {
      const res = await fetchUrl(admin, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: "ErrFieldInvalid", metadata: { field: "url" } });
    }
    expect((await fetchUrl(viewer, `${base}/egg.json`)).status).toBe(403);
  });
});
