import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { setGlobalScopes } from "../support/panel-db.ts";
import { serveFolder } from "../support/static-server.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const corpus = path.resolve(import.meta.dirname, "../fixtures/pufferpanel-templates");
const legacyCorpus = path.resolve(import.meta.dirname, "../fixtures/pufferpanel-templates-v2.6");

/** A template repository on disk: two folders of the real corpus, with a README in one. */
function makeRepoTree(dir: string): void {
  if (!fs.existsSync(corpus)) throw new Error(`the template corpus is missing at ${corpus}`);
  for (const folder of ["terraria-vanilla", "factorio"]) {
    fs.cpSync(path.join(corpus, folder), path.join(dir, folder), { recursive: true });
  }
  fs.writeFileSync(path.join(dir, "factorio", "README.md"), "# Factorio\nA test readme.\n");
  fs.mkdirSync(path.join(dir, ".github"));
  fs.writeFileSync(path.join(dir, ".github", "ignored.json"), "{}");
}

/** Zips a folder's files with their paths relative to it (no top folder). */
async function zipFolder(dir: string, file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !full.includes(`${path.sep}.git${path.sep}`))
      zip.addFile(full, path.relative(dir, full));
  }
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(file));
}

describe("template repositories", () => {
  const panel = usePanel();
  let admin: Client;
  let plain: Client;
  let work: string;
  let files: Awaited<ReturnType<typeof serveFolder>>;

  beforeAll(async () => {
    admin = await adminClient(panel());
    plain = await registeredClient(panel(), {
      username: "templuser",
      email: "t@example.com",
      password: "templ-pass-1",
    });
    work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-repos-"));
    // A real git repository, published for git's dumb HTTP protocol.
    const tree = path.join(work, "tree");
    fs.mkdirSync(tree);
    makeRepoTree(tree);
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
        cwd,
        stdio: "pipe",
      });
    git(tree, "init", "-q", "-b", "v3");
    git(tree, "add", "-A");
    git(tree, "commit", "-q", "-m", "templates");
    git(work, "clone", "-q", "--bare", tree, "repo.git");
    git(path.join(work, "repo.git"), "update-server-info");
    // The same tree as an archive with one top folder, as GitHub serves them.
    await tar.c({ gzip: true, file: path.join(work, "repo.tar.gz"), cwd: work }, ["tree"]);
    // The upstream repository's own archive: spec.json and LICENSE beside the template folders.
    const upstream = path.join(work, "templates-3");
    makeRepoTree(upstream);
    fs.copyFileSync(path.join(corpus, "spec.json"), path.join(upstream, "spec.json"));
    fs.copyFileSync(path.join(corpus, "LICENSE"), path.join(upstream, "LICENSE"));
    await tar.c({ gzip: true, file: path.join(work, "upstream.tar.gz"), cwd: work }, ["templates-3"]);
    // A zip with the template folders at its root (no top folder).
    await zipFolder(tree, path.join(work, "repo.zip"));
    files = await serveFolder(work);
  });
  afterAll(async () => {
    await files?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("lists the starter, community and local repositories on a fresh panel", async () => {
    const repos = await admin.get("/api/templates");
    expect(repos.status).toBe(200);
    expect(repos.body).toEqual([
      { id: -1, name: "Starter", url: "", branch: "", isLocal: false, isBuiltIn: true },
      {
        id: 1,
        name: "community",
        url: "https://github.com/pufferpanel/templates",
        branch: "v3",
        isLocal: false,
      },
      { id: 0, name: "Local", url: "", branch: "", isLocal: true },
    ]);
  });

  it("keeps a repository's listing error on that repository (no internet here)", async () => {
    const community = await admin.get("/api/templates/1");
    expect(community.status).toBe(502);
    expect(community.body.error).toMatchObject({
      code: "ErrRepoUnavailable",
      metadata: { repo: "community" },
    });
    expect(community.body.error.metadata.reason).toMatch(/git clone failed/);
    expect((await admin.get("/api/templates/0")).status).toBe(200);
  });

  it("stores, lists, reads and deletes local templates, converting the old format", async () => {
    expect((await admin.put("/api/templates/0/echo-test", echoDefinition())).status).toBe(204);
    const legacy = JSON.parse(
      fs.readFileSync(path.join(legacyCorpus, "minecraft-vanilla", "minecraft-vanilla.json"), "utf8"),
    );
    expect((await admin.put("/api/templates/0/old-vanilla", legacy)).status).toBe(204);
    const list = await admin.get("/api/templates/0");
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(["echo-test", "old-vanilla"]);
    expect(list.body[0]).toMatchObject({
      name: "echo-test",
      display: "Echo server",
      type: "test",
      environment: { type: "host" },
    });
    const full = await admin.get("/api/templates/0/echo-test");
    expect(full.body).toMatchObject({
      name: "echo-test",
      run: { stop: "stop" },
      data: { motd: { value: "hello" } },
    });
    expect((await admin.get("/api/templates/0/old-vanilla")).body.environment.type).toBe("host");

    expect(
      (await admin.put("/api/templates/0/echo-test", { ...echoDefinition(), display: "Echo 2" })).status,
    ).toBe(204);
    expect((await admin.get("/api/templates/0/echo-test")).body.display).toBe("Echo 2");
    expect((await admin.delete("/api/templates/0/old-vanilla")).status).toBe(204);
    expect((await admin.get("/api/templates/0/old-vanilla")).status).toBe(404);
    expect((await admin.delete("/api/templates/0/old-vanilla")).status).toBe(404);
  });

  it("checks `if` conditions with the CEL library, which the panel loads with the first one", async () => {
    const withCondition = (condition: string) =>
      echoDefinition({ install: [{ type: "mkdir", target: "x", if: condition }] });
    const bad = await admin.put("/api/templates/0/conditional", withCondition("env = 'host'"));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("ErrTemplateInvalid");
    expect(bad.body.error.metadata.path).toBe("install[0].if");
    expect((await admin.put("/api/templates/0/conditional", withCondition("env == 'host'"))).status).toBe(
      204,
    );
    expect((await admin.get("/api/templates/0/conditional")).body.install[0].if).toBe("env == 'host'");
    expect((await admin.delete("/api/templates/0/conditional")).status).toBe(204);
  });

  it("refuses invalid templates, bad names and edits of read-only repositories", async () => {
    const invalid = await admin.put("/api/templates/0/broken", { ...echoDefinition(), run: { command: 3 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("ErrTemplateInvalid");
    expect(invalid.body.error.metadata.path).toMatch(/^run\.command/);
    expect((await admin.put("/api/templates/0/bad%20name", echoDefinition())).status).toBe(400);
    expect((await admin.put("/api/templates/1/x", echoDefinition())).body.error.code).toBe("ErrRepoReadOnly");
    expect((await admin.get("/api/templates/0/broken")).status).toBe(404);
  });

  it("adds a git repository by URL and reads its templates and readme", async () => {
    const added = await admin.post("/api/templates", {
      name: "ours-git",
      url: `${files.url}/repo.git`,
      branch: "v3",
    });
    expect(added.status, added.text).toBe(200);
    const id = added.body.id;
    const list = await admin.get(`/api/templates/${id}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(["factorio", "terraria-vanilla"]);
    const factorio = await admin.get(`/api/templates/${id}/factorio`);
    expect(factorio.body).toMatchObject({
      name: "factorio",
      type: "factorio",
      readme: expect.stringContaining("A test readme"),
    });
    expect((await admin.get(`/api/templates/${id}/nope`)).status).toBe(404);
  });

  it("adds a tar.gz archive over HTTP, and refuses a duplicate name and a bad URL", async () => {
    const added = await admin.post("/api/templates", {
      name: "ours-archive",
      url: `${files.url}/repo.tar.gz`,
    });
    expect(added.status).toBe(200);
    expect(
      (await admin.get(`/api/templates/${added.body.id}`)).body.map((t: { name: string }) => t.name),
    ).toEqual(["factorio", "terraria-vanilla"]);
    expect(
      (await admin.post("/api/templates", { name: "ours-archive", url: `${files.url}/x.tar.gz` })).body.error
        .code,
    ).toBe("ErrRepoExists");
    expect((await admin.post("/api/templates", { name: "bad", url: "ftp://example.com/x" })).status).toBe(
      400,
    );
  });

  it("reads an archive in the upstream layout (spec.json beside the folders) and a zip in any layout", async () => {
    for (const [name, file] of [
      ["upstream-archive", "upstream.tar.gz"],
      ["zipped", "repo.zip"],
    ]) {
      const added = await admin.post("/api/templates", { name, url: `${files.url}/${file}` });
      expect(added.status, added.text).toBe(200);
      const listed = await admin.get(`/api/templates/${added.body.id}`);
      expect(
        listed.body.map((t: { name: string }) => t.name),
        name,
      ).toEqual(["factorio", "terraria-vanilla"]);
      expect((await admin.get(`/api/templates/${added.body.id}/factorio`)).body.readme).toMatch(
        /test readme/,
      );
    }
  });

  it("reads a folder on the panel's host, for administrators only", async () => {
    const folder = path.join(work, "tree");
    const added = await admin.post("/api/templates", { name: "host-folder", url: folder });
    expect(added.status, added.text).toBe(200);
    expect(added.body.url).toBe(`file://${folder}`);
    const listed = await admin.get(`/api/templates/${added.body.id}`);
    expect(listed.body.map((t: { name: string }) => t.name)).toEqual(["factorio", "terraria-vanilla"]);
    // Read where it is: a template added to the folder shows without a refresh.
    fs.cpSync(path.join(corpus, "valheim"), path.join(folder, "valheim"), { recursive: true });
    expect((await admin.get(`/api/templates/${added.body.id}`)).body).toHaveLength(3);
    fs.rmSync(path.join(folder, "valheim"), { recursive: true });

    const missing = await admin.post("/api/templates", { name: "nowhere", url: `${folder}-missing` });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "ErrFieldInvalid", metadata: { field: "url" } });
    const editor = await registeredClient(panel(), {
      username: "repoeditor",
      email: "repoeditor@example.com",
      password: "repo-editor-1",
    });
    await setGlobalScopes(panel(), "repoeditor@example.com", [
      "login",
      "templates.view",
      "templates.repo.create",
    ]);
    const refused = await editor.post("/api/templates", { name: "sneaky", url: "file:///etc" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("ErrMissingScope");
  });

  it("remembers a repository that failed for a while, and fetches it again on Retry", async () => {
    const port = await freePort();
    const down = await admin.post("/api/templates", {
      name: "flaky",
      url: `http://127.0.0.1:${port}/repo.tar.gz`,
    });
    const first = await admin.get(`/api/templates/${down.body.id}`);
    expect(first.status).toBe(502);
    const triedAt = first.body.error.metadata.triedAt;
    expect(Date.parse(triedAt)).toBeGreaterThan(0);
    // The source comes back; within the retry pause the panel answers from what it remembers.
    const back = await serveFolder(work, port);
    try {
      const second = await admin.get(`/api/templates/${down.body.id}`);
      expect(second.status).toBe(502);
      expect(second.body.error.metadata.triedAt).toBe(triedAt);
      expect(back.requests).toEqual([]);
      const retried = await admin.get(`/api/templates/${down.body.id}?retry=true`);
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body).toHaveLength(2);
      expect(back.requests).toEqual(["/repo.tar.gz"]);
    } finally {
      await back.close();
    }
  });

  it("lists the other repositories while one is down, and removes repositories", async () => {
    const down = await admin.post("/api/templates", {
      name: "down",
      url: `http://127.0.0.1:${await freePort()}/gone.tar.gz`,
    });
    const failing = await admin.get(`/api/templates/${down.body.id}`);
    expect(failing.body.error.code).toBe("ErrRepoUnavailable");
    expect((await admin.get("/api/templates/0")).status).toBe(200);
    expect((await admin.delete(`/api/templates/${down.body.id}`)).status).toBe(204);
    expect((await admin.get("/api/templates")).body.map((r: { name: string }) => r.name)).not.toContain(
      "down",
    );
    expect((await admin.delete("/api/templates/0")).body.error.code).toBe("ErrCannotDeleteLocalRepo");
    expect((await admin.delete("/api/templates/999")).status).toBe(404);
  });

  it("refuses users without the template scopes, and anonymous callers", async () => {
    const anonymous = new PanelClient(panel().url);
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/templates"],
      ["GET", "/api/templates/0"],
      ["GET", "/api/templates/0/echo-test"],
      ["PUT", "/api/templates/0/x", echoDefinition()],
      ["DELETE", "/api/templates/0/echo-test"],
      ["POST", "/api/templates", { name: "x", url: "https://example.com/x.tar.gz" }],
      ["DELETE", "/api/templates/1"],
    ];
    for (const [method, url, json] of calls) {
      expect((await plain.call(method, url, { json })).status, `${method} ${url}`).toBe(403);
      expect((await anonymous.call(method, url, { json })).status, `${method} ${url}`).toBe(401);
    }
  });
});
