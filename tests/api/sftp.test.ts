import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { setGlobalScopes, setServerScopes } from "../support/panel-db.ts";
import { startPanel } from "../support/panel-process.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { hostKeyFingerprint, type Run, runSftp, runSsh, type SshLogin } from "../support/sftp-client.ts";
import {
  admin,
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

function tempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `outpost-sftp-test-${tag}-`));
}

/** A random file of `megabytes` MiB in `dir`. */
function randomFile(dir: string, name: string, megabytes: number): string {
  const file = path.join(dir, name);
  const out = fs.openSync(file, "w");
  for (let i = 0; i < megabytes; i++) fs.writeSync(out, randomBytes(1024 * 1024));
  fs.closeSync(out);
  return file;
}

/** Writes `bytes` into a file with ssh2's client, which hands over the node's own status message. */
function writeWithSsh2(login: SshLogin, file: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on("error", reject);
    client.on("ready", () =>
      client.sftp((error, sftp) => {
        if (error) return reject(error);
        sftp.writeFile(file, bytes, (failed) => {
          client.end();
          if (failed) reject(failed);
          else resolve();
        });
      }),
    );
    client.connect({ host: "127.0.0.1", port: login.port, username: login.user, password: login.password });
  });
}

/** What the client printed besides its own echo of each batch command. */
const answers = (run: Run) =>
  run.stdout
    .split("\n")
    .filter((line) => !line.startsWith("sftp>"))
    .join("\n");

function expectRefused(run: Run): void {
  expect(run.code, run.stdout + run.stderr).not.toBe(0);
  expect(run.stderr).toMatch(/Permission denied/);
  expect(run.stdout).not.toMatch(/Remote working directory/);
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** What a user needs on a server for SFTP that reads and writes (a read-only session lacks files.edit). */
const sftpScopes = ["server.view", "server.sftp", "server.files.view", "server.files.edit"];
const readOnlyScopes = ["server.view", "server.sftp", "server.files.view"];

/**
 * Each change a read-only session asks, one sftp run each (so that each must be refused on its
 * own): upload, overwrite, remove, mkdir, rmdir, rename, symlink, chmod, set times.
 */
const changes = [
  "put new.txt uploaded.txt",
  "put new.txt kept.txt",
  "rm kept.txt",
  "mkdir made",
  "rmdir folder",
  "rename kept.txt renamed.txt",
  "symlink kept.txt link.txt",
  "chmod 600 kept.txt",
  "put -p new.txt kept.txt",
];

/** A server folder with a file and an empty folder in it, as the read-only tests expect. */
function seedReadOnly(root: string): void {
  fs.writeFileSync(path.join(root, "kept.txt"), "kept");
  fs.mkdirSync(path.join(root, "folder"), { recursive: true });
}

/** The folder is just as seedReadOnly left it: the names it held, kept.txt as it was. */
function expectUnchanged(root: string, names: string[]): void {
  expect(fs.readdirSync(root).sort()).toEqual(names);
  expect(fs.readFileSync(path.join(root, "kept.txt"), "utf8")).toBe("kept");
  expect(fs.statSync(path.join(root, "kept.txt")).mode & 0o777).toBe(0o644);
}

/** Every change refused with SFTP's permission denied, and reading still works. */
async function expectReadOnly(login: SshLogin, root: string): Promise<void> {
  const dir = tempDir("readonly");
  const names = fs.readdirSync(root).sort();
  expect(names).toEqual(expect.arrayContaining(["folder", "kept.txt"]));
  try {
    fs.writeFileSync(path.join(dir, "new.txt"), "new");
    for (const change of changes) {
      const run = await runSftp(login, [change], { cwd: dir });
      expect(run.code, `${change}: ${run.stdout}${run.stderr}`).not.toBe(0);
      expect(run.stderr, change).toMatch(/Permission denied/);
      expectUnchanged(root, names);
    }
    const read = await runSftp(login, ["ls -l", "get kept.txt got.txt", "ls folder"], { cwd: dir });
    expect(read.code, read.stderr).toBe(0);
    expect(answers(read)).toMatch(/kept\.txt/);
    expect(fs.readFileSync(path.join(dir, "got.txt"), "utf8")).toBe("kept");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("SFTP", () => {
  const panel = usePanel();
  const localId = "sftp0local";
  const siblingId = "sftp0sibling";
  const readOnlyId = "sftp0readonly";
  const remoteId = "sftp0remote";
  const sftpUser = newUser("sftp");
  const viewer = newUser("nosftp");
  const barred = newUser("barred");
  const locked = newUser("locked");
  const reader = newUser("sftpreader");
  const unseeing = newUser("sftpnoview");
  let api: Client;
  let work: string;

  const root = (id: string) => path.join(panel().dataDir, "node", "servers", id);
  const local = (user: { email: string; password: string }, id = localId): SshLogin => ({
    port: panel().sftpPort,
    user: `${user.email}#${id}`,
    password: user.password,
  });

  beforeAll(async () => {
    api = await adminClient(panel());
    for (const id of [localId, siblingId, readOnlyId]) await createEchoServer(api, id, { name: id });
    for (const user of [sftpUser, viewer, barred, locked, reader, unseeing])
      await registeredClient(panel(), user);
    await setServerScopes(panel(), sftpUser.email, localId, sftpScopes);
    await setServerScopes(panel(), barred.email, localId, sftpScopes);
    await setServerScopes(panel(), locked.email, localId, sftpScopes);
    await setServerScopes(panel(), sftpUser.email, readOnlyId, sftpScopes);
    await setServerScopes(panel(), reader.email, readOnlyId, readOnlyScopes);
    // SFTP and the right to change files, but not to see them: the file manager shows nothing.
    await setServerScopes(panel(), unseeing.email, readOnlyId, [
      "server.view",
      "server.sftp",
      "server.files.edit",
    ]);
    // Everything but SFTP on the server: the file manager's scopes do not open SFTP.
    await setServerScopes(panel(), viewer.email, localId, [
      "server.view",
      "server.files.view",
      "server.files.edit",
    ]);
    work = tempDir("work");
  });

  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  describe("SFTP on the local node (in the panel process)", () => {
    it("shows the node's SFTP port in the server view", async () => {
      const view = await api.get(`/api/servers/${localId}`);
      expect(view.status).toBe(200);
      expect(view.body.server.node).toMatchObject({ id: 0, sftpPort: panel().sftpPort });
    });

    it("puts and gets a multi-megabyte file unchanged, and lists it like ls -l", async () => {
      const dir = tempDir("transfer");
      try {
        const source = randomFile(dir, "source.bin", 8);
        const run = await runSftp(
          local(sftpUser),
          ["put source.bin upload.bin", "get upload.bin download.bin", "ls -l"],
          { cwd: dir },
        );
        expect(run.code, run.stderr).toBe(0);
        expect(sha256(path.join(root(localId), "upload.bin"))).toBe(sha256(source));
        expect(sha256(path.join(dir, "download.bin"))).toBe(sha256(source));
        expect(answers(run)).toMatch(
          /^-rw-r--r-- +1 +\d+ +\d+ +8388608 \w{3} [ \d]\d [\d:]{4,5} +upload\.bin$/m,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("makes folders, renames, removes files and empty folders", async () => {
      fs.writeFileSync(path.join(root(localId), "notes.txt"), "some notes");
      const made = await runSftp(local(sftpUser), [
        "mkdir world",
        "mkdir world/region",
        "rename notes.txt world/notes.txt",
      ]);
      expect(made.code, made.stderr).toBe(0);
      expect(fs.readFileSync(path.join(root(localId), "world/notes.txt"), "utf8")).toBe("some notes");
      expect(fs.statSync(path.join(root(localId), "world/region")).isDirectory()).toBe(true);
      expect(fs.existsSync(path.join(root(localId), "notes.txt"))).toBe(false);

      // rmdir takes empty folders only (see session.ts); rm takes files, not folders.
      const refused = await runSftp(local(sftpUser), [
        "-rmdir world",
        "-rm world/region",
        "-rename world/notes.txt world",
      ]);
      expect(refused.code, refused.stderr).toBe(0);
      expect(refused.stderr).toMatch(/remote rmdir "\/world": Failure/);
      expect(fs.existsSync(path.join(root(localId), "world/notes.txt"))).toBe(true);
      expect(fs.existsSync(path.join(root(localId), "world/region"))).toBe(true);

      const removed = await runSftp(local(sftpUser), [
        "rm world/notes.txt",
        "rmdir world/region",
        "rmdir world",
        "ls",
      ]);
      expect(removed.code, removed.stderr).toBe(0);
      expect(fs.existsSync(path.join(root(localId), "world"))).toBe(false);
    });

    it("stops an upload at the server's disk limit with a message that says so", async () => {
      const id = "sftp0disk";
      const res = await api.put(`/api/servers/${id}`, {
        ...echoDefinition({ limits: { diskMiB: 1 } }),
        node: 0,
      });
      expect(res.status, res.text).toBe(200);
      await setServerScopes(panel(), sftpUser.email, id, sftpScopes);
      const dir = tempDir("disk");
      try {
        randomFile(dir, "big.bin", 2);
        const run = await runSftp(local(sftpUser, id), ["-put big.bin big.bin", "put big.bin again.bin"], {
          cwd: dir,
        });
        // OpenSSH's client shows only "Failure" (at the open or at a write, wherever the limit is met;
        // "-put" may keep it quiet); what the node answered is read with ssh2's own client below.
        expect(run.stderr).toMatch(/"\/again.bin": Failure/);
        // What was sent before the limit stays (as on a full disk), up to the limit; nothing after it.
        const sent = ["big.bin", "again.bin"]
          .map((name) => fs.statSync(path.join(root(id), name), { throwIfNoEntry: false })?.size ?? 0)
          .reduce((a, b) => a + b, 0);
        expect(sent).toBeLessThanOrEqual(1024 * 1024);
        await expect(
          writeWithSsh2(local(sftpUser, id), "/other.txt", Buffer.alloc(256 * 1024)),
        ).rejects.toThrow("the server's disk limit (1 MiB) would be exceeded");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("applies the modification time a client sets (put -p)", async () => {
      const dir = tempDir("times");
      try {
        fs.writeFileSync(path.join(dir, "old.txt"), "from 2001");
        const then = new Date("2001-09-09T01:46:40Z");
        fs.utimesSync(path.join(dir, "old.txt"), then, then);
        const run = await runSftp(local(sftpUser), ["put -p old.txt old.txt"], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
        expect(fs.statSync(path.join(root(localId), "old.txt")).mtime.getTime()).toBe(then.getTime());
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("lets an administrator in on any server (admin in the global row)", async () => {
      const run = await runSftp(local(admin, siblingId), ["pwd"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("Remote working directory: /");
    });

    it("refuses wrong passwords, unknown users, users without server.sftp, unknown servers and barred accounts alike", async () => {
      const attempts: SshLogin[] = [
        { ...local(sftpUser), password: "not-the-password" },
        local({ email: "nobody@example.com", password: sftpUser.password }),
        local(viewer),
        local(sftpUser, siblingId),
        local(sftpUser, "no-such-server"),
        { ...local(sftpUser), user: sftpUser.email },
      ];
      for (const login of attempts) {
        const run = await runSftp(login, ["mkdir made-by-a-refused-login"]);
        expectRefused(run);
      }
      await setGlobalScopes(panel(), barred.email, []);
      expectRefused(await runSftp(local(barred), ["mkdir made-by-a-refused-login"]));
      expect(fs.existsSync(path.join(root(localId), "made-by-a-refused-login"))).toBe(false);
      // The same user, right password: in.
      expect((await runSftp(local(sftpUser), ["pwd"])).code).toBe(0);
    });

    it("counts failed passwords in the panel's sign-in throttle", async () => {
      for (let i = 0; i < 5; i++) {
        expectRefused(await runSftp({ ...local(locked), password: `wrong-${i}` }, ["pwd"]));
      }
      expectRefused(await runSftp(local(locked), ["pwd"]));
      // The web sign-in shares the count.
      const web = await new PanelClient(panel().url).login(locked.email, locked.password);
      expect(web.status).toBe(429);
      expect(panel().logs()).not.toContain(locked.password);
      expect(panel().logs()).not.toContain("wrong-0");
    });

    it("without server.files.edit, the session is read-only: every change refused, reading works (issue 22, point 3)", async () => {
      seedReadOnly(root(readOnlyId));
      const names = fs.readdirSync(root(readOnlyId)).sort();
      await expectReadOnly(local(reader, readOnlyId), root(readOnlyId));
      // The same folder, by a user who holds files.edit: changes go through.
      const dir = tempDir("writer");
      try {
        fs.writeFileSync(path.join(dir, "new.txt"), "new");
        const run = await runSftp(
          local(sftpUser, readOnlyId),
          ["put new.txt uploaded.txt", "mkdir made", "rm uploaded.txt", "rmdir made"],
          { cwd: dir },
        );
        expect(run.code, run.stderr).toBe(0);
        expectUnchanged(root(readOnlyId), names);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("refuses to change the files an egg's file_denylist protects, and only those (issue 28)", async () => {
      const id = "sftp0egg";
      const made = await api.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        node: 0,
        egg: { format: "PTDL_v2", denylist: ["server.jar", "config/*.cfg", "!config/free.cfg", "locked/"] },
      });
      expect(made.status, made.text).toBe(200);
      await setServerScopes(panel(), sftpUser.email, id, sftpScopes);
      const folder = root(id);
      fs.mkdirSync(path.join(folder, "config"), { recursive: true });
      fs.mkdirSync(path.join(folder, "locked", "empty"), { recursive: true });
      fs.mkdirSync(path.join(folder, "plugins", "x"), { recursive: true });
      const seeded: Record<string, string> = {
        "server.jar": "jar",
        "plugins/x/server.jar": "nested jar",
        "config/game.cfg": "game",
        "config/free.cfg": "free",
        "locked/inside.txt": "inside",
        "notes.txt": "notes",
      };
      for (const [name, text] of Object.entries(seeded)) fs.writeFileSync(path.join(folder, name), text);
      const dir = tempDir("denylist");
      try {
        fs.writeFileSync(path.join(dir, "new.txt"), "new");
        // Each change on its own run, so that each must be refused by itself.
        for (const change of [
          "put new.txt server.jar",
          "put new.txt plugins/x/server.jar",
          "put new.txt config/game.cfg",
          "put new.txt config/other.cfg",
          "put new.txt locked/inside.txt",
          "put new.txt locked/new.txt",
          "rm server.jar",
          "rm config/game.cfg",
          "rm locked/inside.txt",
          "rename server.jar moved.jar",
          "rename notes.txt locked/new.txt",
          "rename config/game.cfg config/game.bak",
          "rename notes.txt config/new.cfg",
          "rename locked unlocked",
          "rename config settings",
          "rename plugins elsewhere",
          "rmdir locked/empty",
          "symlink notes.txt config/link.cfg",
          "mkdir locked/sub",
          "mkdir config/sub.cfg",
        ]) {
          const run = await runSftp(local(sftpUser, id), [change], { cwd: dir });
          expect(run.code, `${change}: ${run.stdout}${run.stderr}`).not.toBe(0);
          expect(run.stderr, change).toMatch(/Permission denied/);
          for (const [name, text] of Object.entries(seeded))
            expect(fs.readFileSync(path.join(folder, name), "utf8"), `${change}: ${name}`).toBe(text);
          expect(fs.readdirSync(folder).sort(), change).toEqual(
            ["config", "locked", "notes.txt", "plugins", "server.jar"].sort(),
          );
          expect(fs.readdirSync(path.join(folder, "config")).sort(), change).toEqual([
            "free.cfg",
            "game.cfg",
          ]);
        }
        // A link to a protected folder reaches the same files: refused by where they really are.
        const linked = await runSftp(local(sftpUser, id), ["symlink config alias"], { cwd: dir });
        expect(linked.code, linked.stderr).toBe(0);
        for (const change of [
          "rm alias/game.cfg",
          "rename alias/game.cfg alias/game.bak",
          "put new.txt alias/game.cfg",
        ]) {
          const run = await runSftp(local(sftpUser, id), [change], { cwd: dir });
          expect(run.code, `${change}: ${run.stdout}${run.stderr}`).not.toBe(0);
          expect(run.stderr, change).toMatch(/Permission denied/);
          expect(fs.readdirSync(path.join(folder, "config")).sort(), change).toEqual([
            "free.cfg",
            "game.cfg",
          ]);
          expect(fs.readFileSync(path.join(folder, "config/game.cfg"), "utf8")).toBe("game");
        }
        // Reading stays open, and what the list does not name (or allows again) changes as usual.
        const free = await runSftp(
          local(sftpUser, id),
          [
            "get server.jar got.jar",
            "put new.txt config/free.cfg",
            "put new.txt notes.txt",
            "rename notes.txt notes.md",
          ],
          { cwd: dir },
        );
        expect(free.code, free.stderr).toBe(0);
        expect(fs.readFileSync(path.join(dir, "got.jar"), "utf8")).toBe("jar");
        expect(fs.readFileSync(path.join(folder, "config/free.cfg"), "utf8")).toBe("new");
        expect(fs.readFileSync(path.join(folder, "notes.md"), "utf8")).toBe("new");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("needs server.files.view to sign in at all, as the file manager needs it to show anything", async () => {
      const names = fs.readdirSync(root(readOnlyId)).sort();
      expectRefused(await runSftp(local(unseeing, readOnlyId), ["put /etc/hostname hostname"]));
      expectUnchanged(root(readOnlyId), names);
    });

    it("offers no shell and runs no command", async () => {
      const run = await runSsh(local(sftpUser), ["touch", "/tmp/outpost-sftp-exec-ran"]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/exec request failed/);
      expect(fs.existsSync("/tmp/outpost-sftp-exec-ran")).toBe(false);
    });

    describe("keeps every path inside the server's folder", () => {
      let dir: string;
      beforeAll(() => {
        dir = tempDir("escape");
        const inside = root(localId);
        fs.mkdirSync(path.join(inside, "etc"), { recursive: true });
        fs.writeFileSync(path.join(inside, "etc/passwd"), "the server's own etc/passwd");
        fs.writeFileSync(path.join(inside, "keep.txt"), "stays here");
        fs.writeFileSync(path.join(root(siblingId), "secret.txt"), "the sibling's secret");
        fs.writeFileSync(path.join(dir, "upload.txt"), "should land nowhere");
        // Made on disk, as a game server or an archive could leave them.
        fs.symlinkSync("/etc", path.join(inside, "etc-link"));
        fs.symlinkSync(`../${siblingId}`, path.join(inside, "to-sibling"));
        fs.symlinkSync(root(siblingId), path.join(inside, "to-sibling-abs"));
      });
      afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

      it("reads .. above / and absolute paths as places in the folder, as a chroot would", async () => {
        const run = await runSftp(
          local(sftpUser),
          [
            "cd ..",
            "pwd",
            "get ../../etc/passwd climbed.txt",
            "get /etc/passwd absolute.txt",
            "cd /../../..",
            "pwd",
          ],
          { cwd: dir },
        );
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout.match(/Remote working directory: \/\n/g)).toHaveLength(2);
        for (const name of ["climbed.txt", "absolute.txt"]) {
          expect(fs.readFileSync(path.join(dir, name), "utf8")).toBe("the server's own etc/passwd");
        }
      });

      it("follows no symlink out: not to /etc, not to a sibling server, by relative or absolute link", async () => {
        const run = await runSftp(
          local(sftpUser),
          [
            "-get etc-link/passwd a.txt",
            "-get etc-link b.txt",
            "-ls etc-link",
            "-ls etc-link/",
            "-cd etc-link",
            "-get to-sibling/secret.txt c.txt",
            "-get to-sibling-abs/secret.txt d.txt",
            "-ls to-sibling",
            "-put upload.txt to-sibling/evil.txt",
            "-put upload.txt etc-link/evil.txt",
            "-mkdir to-sibling/evil",
            "-rename keep.txt to-sibling/keep.txt",
            "-rename keep.txt to-sibling-abs/keep.txt",
            "-ln -s /etc new-abs-link",
            `-ln -s ../${siblingId} new-rel-link`,
            "-rm to-sibling/secret.txt",
          ],
          { cwd: dir },
        );
        expect(run.code, run.stderr).toBe(0);
        for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"])
          expect(fs.existsSync(path.join(dir, name))).toBe(false);
        const shown = answers(run);
        expect(shown).not.toMatch(/hostname|os-release|secret\.txt/);
        expect(fs.readdirSync(root(siblingId)).sort()).toEqual(["secret.txt"]);
        expect(fs.readFileSync(path.join(root(siblingId), "secret.txt"), "utf8")).toBe(
          "the sibling's secret",
        );
        expect(fs.existsSync("/etc/evil.txt")).toBe(false);
        expect(fs.readFileSync(path.join(root(localId), "keep.txt"), "utf8")).toBe("stays here");
        for (const name of ["new-abs-link", "new-rel-link"]) {
          expect(fs.existsSync(path.join(root(localId), name))).toBe(false);
        }
        expect(run.stderr).toMatch(/Permission denied/);
      });

      it("still lists the links as links, and makes links that stay inside", async () => {
        const run = await runSftp(
          local(sftpUser),
          ["ln -s keep.txt keep-link", "get keep-link kept.txt", "ls -l"],
          {
            cwd: dir,
          },
        );
        expect(run.code, run.stderr).toBe(0);
        expect(fs.readlinkSync(path.join(root(localId), "keep-link"))).toBe("keep.txt");
        expect(fs.readFileSync(path.join(dir, "kept.txt"), "utf8")).toBe("stays here");
        expect(answers(run)).toMatch(/^l[rwx-]{9} .* etc-link$/m);
      });
    });
  });

  describe("the SFTP host key", () => {
    // Two more panels start and stop here, one after the other.
    it("is made once in the node's data folder and the same after a restart", {
      timeout: 120_000,
    }, async () => {
      const dataDir = tempDir("hostkey");
      const postgresUrl = process.env.OUTPOST_TEST_DB === "postgres" ? inject("postgresUrl") : undefined;
      try {
        const first = await startPanel({ dataDir, postgresUrl });
        let before: string;
        try {
          before = await hostKeyFingerprint(first.sftpPort);
          expect(first.logs()).toContain(`host key ${before}`);
        } finally {
          await first.stop();
        }
        const keyFile = path.join(dataDir, "node", "sftp_host_ed25519_key");
        expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
        expect(fs.readFileSync(keyFile, "utf8")).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
        // Stopped means stopped: nothing answers on the port any more.
        await expect(connects(first.sftpPort)).resolves.toBe(false);

        const second = await startPanel({ dataDir, postgresUrl });
        try {
          expect(await hostKeyFingerprint(second.sftpPort)).toBe(before);
        } finally {
          await second.stop();
        }
        // Another node (the file's panel) has a key of its own.
        expect(await hostKeyFingerprint(panel().sftpPort)).not.toBe(before);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe("SFTP on a remote node (in outpost daemon, asking the panel)", () => {
    let nodeId: number;
    let daemon: DaemonProcess;
    let secret: string;
    const remote = (user: { email: string; password: string }, id = remoteId): SshLogin => ({
      port: daemon.config.sftp.port,
      user: `${user.email}#${id}`,
      password: user.password,
    });
    const token = (form: Record<string, string>, bearer?: string) =>
      new PanelClient(panel().url).call("POST", "/oauth2/token", {
        form,
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
    const grant = (user: { email: string; password: string }, id = remoteId) => ({
      grant_type: "password",
      username: `${user.email}#${id}`,
      password: user.password,
      scope: "sftp",
    });

    beforeAll(async () => {
      ({ nodeId, daemon } = await addRemoteNode(api, "sftp-remote"));
      await createEchoServer(api, remoteId, { name: remoteId, node: nodeId });
      await setServerScopes(panel(), sftpUser.email, remoteId, sftpScopes);
      await setServerScopes(panel(), reader.email, remoteId, readOnlyScopes);
      await setServerScopes(panel(), viewer.email, remoteId, ["server.view", "server.files.view"]);
      secret = (await api.get(`/api/nodes/${nodeId}/deployment`)).body.clientSecret;
    });
    afterAll(async () => {
      await daemon?.destroy();
    });

    it("listens on the node's sftp port, shown in the server view", async () => {
      const node = await api.get(`/api/nodes/${nodeId}`);
      expect(daemon.config.sftp.port).toBe(node.body.sftpPort);
      expect(daemon.logs()).toContain(`SFTP on 127.0.0.1:${node.body.sftpPort}`);
      const view = await api.get(`/api/servers/${remoteId}`);
      expect(view.body.server.node).toMatchObject({ id: nodeId, sftpPort: node.body.sftpPort });
      expect(fs.existsSync(path.join(daemon.config.dataDir, "sftp_host_ed25519_key"))).toBe(true);
    });

    it("puts and gets a multi-megabyte file unchanged", async () => {
      const dir = tempDir("remote");
      try {
        const source = randomFile(dir, "source.bin", 4);
        const run = await runSftp(
          remote(sftpUser),
          [
            "put source.bin upload.bin",
            "get upload.bin download.bin",
            "mkdir saves",
            "rename upload.bin saves/kept.bin",
            "ls saves",
          ],
          { cwd: dir },
        );
        expect(run.code, run.stderr).toBe(0);
        const onNode = path.join(daemon.config.dataDir, "servers", remoteId, "saves", "kept.bin");
        expect(sha256(onNode)).toBe(sha256(source));
        expect(sha256(path.join(dir, "download.bin"))).toBe(sha256(source));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("refuses a wrong password, a user without server.sftp, and servers of another node", async () => {
      expectRefused(await runSftp({ ...remote(sftpUser), password: "not-the-password" }, ["pwd"]));
      expectRefused(await runSftp(remote(viewer), ["pwd"]));
      // A server of the local node, through the remote node's port, and the other way round.
      expectRefused(await runSftp(remote(sftpUser, localId), ["pwd"]));
      expectRefused(await runSftp(local(sftpUser, remoteId), ["pwd"]));
      expect(daemon.logs()).not.toContain(sftpUser.password);
    });

    it("keeps the session read-only without server.files.edit: the node enforces what the panel answered", async () => {
      const onNode = path.join(daemon.config.dataDir, "servers", remoteId);
      const dir = tempDir("remote-seed");
      try {
        // Seeded through SFTP by a user who may write: the node's folder belongs to the node.
        fs.writeFileSync(path.join(dir, "kept.txt"), "kept");
        const seeded = await runSftp(remote(sftpUser), ["mkdir folder", "put kept.txt kept.txt"], {
          cwd: dir,
        });
        expect(seeded.code, seeded.stderr).toBe(0);
        fs.chmodSync(path.join(onNode, "kept.txt"), 0o644);
        await expectReadOnly(remote(reader), onNode);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    describe("the panel's password grant that the node asks", () => {
      it("answers <serverId>:server.sftp to the node holding the server, with a token that opens nothing", async () => {
        const res = await token(grant(sftpUser), secret);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({
          token_type: "Bearer",
          scope: `${remoteId}:server.sftp ${remoteId}:server.files.edit`,
        });
        // Without files.edit, only server.sftp: the node keeps that session read-only.
        const readOnly = await token(grant(reader), secret);
        expect(readOnly.body).toMatchObject({ scope: `${remoteId}:server.sftp` });
        expect(res.headers.get("cache-control")).toBe("no-store");
        const self = await new PanelClient(panel().url).get("/api/self", { bearer: res.body.access_token });
        expect(self.status).toBe(401);
      });

      it("wants the node's secret as a bearer token", async () => {
        for (const bearer of [undefined, "0".repeat(64), `${secret}x`]) {
          const res = await token(grant(sftpUser), bearer);
          expect(res.status).toBe(401);
          expect(res.body).toEqual({ error: "invalid_client" });
          expect(res.headers.get("www-authenticate")).toBe("Bearer");
        }
      });

      it("refuses every bad sign-in with the same invalid_grant", async () => {
        const refused = [
          { ...grant(sftpUser), password: "not-the-password" },
          grant({ email: "nobody@example.com", password: "whatever-1" }),
          grant(viewer),
          grant(sftpUser, localId),
          grant(sftpUser, "no-such-server"),
        ];
        for (const form of refused) {
          const res = await token(form, secret);
          expect(res.status, JSON.stringify(form.username)).toBe(400);
          expect(res.body).toEqual({ error: "invalid_grant" });
        }
        expect((await token({ ...grant(sftpUser), scope: "admin" }, secret)).body).toEqual({
          error: "invalid_scope",
        });
        const missing = await token({ grant_type: "password", scope: "sftp" }, secret);
        expect(missing.status).toBe(400);
        expect(missing.body.error).toBe("invalid_request");
      });
    });
  });
});
