import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, expect, it } from "vitest";
import { currentOtp } from "../../server/panel/otp.ts";
import { type Backup, downloadBytes } from "./backups.ts";
import { echoDefinition } from "./echo-template.ts";
import { freePort } from "./free-port.ts";
import { type MariaDb, startMariaDb } from "./mariadb.ts";
import { withPanelDb } from "./panel-db.ts";
import {
  addLaterServer,
  appKey,
  fillSource,
  friendScopes,
  type SourceConnection,
  sourceBackups,
  sourceServers,
  sourceUsers,
  uuidOf,
} from "./panel-source.ts";
import { waitUntil } from "./poll.ts";
import { S3StandIn, s3Bucket } from "./s3-stand-in.ts";
import { runSftp } from "./sftp-client.ts";
import { PanelClient, usePanelWithRemoteNode } from "./test-panel.ts";
import { wingsBackup } from "./wings-backup.ts";
import { startWingsSftp, type WingsSftp } from "./wings-sftp.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const bin = path.join(repoRoot, "bin/outpost.mjs");

/**
 * A command run to its end without blocking this process (the old Wings node's SFTP answers
 * from here meanwhile).
 */
function runToEnd(
  command: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The fenced `sh` blocks of the moving guide (docs/moving-from-pterodactyl.md), in order. */
export function readmeImportSteps(): string[] {
  const guide = fs.readFileSync(path.join(repoRoot, "docs", "moving-from-pterodactyl.md"), "utf8");
  if (!guide.startsWith("# Moving from Pterodactyl or Pelican"))
    throw new Error("docs/moving-from-pterodactyl.md is not the moving guide");
  return [...guide.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
    (body as string)
      .split("\n")
      .map((line) => (line.startsWith(indent as string) ? line.slice((indent as string).length) : line))
      .join("\n"),
  );
}

export interface ImportSource {
  connection: SourceConnection;
  url: string;
}

/**
 * `outpost import <panel>` against a running panel with a remote node (a real daemon, so the
 * command and the panel do not share a local engine): the source is a real schema of that panel
 * with rows this suite writes (panel-source.ts). `makeSource` opens it on the MariaDB started here.
 */
export function useImportSuite(
  panelKind: "pterodactyl" | "pelican",
  /** Run the guide's steps word for word (the section's commands name Pterodactyl). */
  followReadme: boolean,
  makeSource: (mariadb: MariaDb, work: string) => Promise<ImportSource>,
) {
  const ready = usePanelWithRemoteNode(`${panelKind}-node`);
  let mariadb: MariaDb;
  let source: ImportSource;
  let work: string;
  let sourceBefore: string;
  /** The owner's private key of the source's "laptop" key. */
  let ownerKey: string;
  let wings: WingsSftp;
  /** The bucket Wings wrote the old panel's S3 backups to. */
  let s3: S3StandIn;
  /** The Minecraft server's backup there, as Wings made it: `<server uuid>/<backup uuid>.tar.gz`. */
  const keptKey = `${uuidOf(sourceServers[0].uuidShort)}/${sourceBackups.kept.uuid}.tar.gz`;
  const kept = wingsBackup(
    {
      "server.properties": "motd=old panel\n",
      "world/level.dat": Buffer.alloc(70_000, 3),
      "from-the-backup.txt": "made before the update\n",
    },
    "plain",
  );
  /** The Cuberite server's backup on its Wings node's disk, in a copy of that node's backups folder here. */
  const local = wingsBackup(
    { "settings.ini": "[Server]\nPorts=25566\n", "world/level.dat": "cuberite" },
    "dot",
  );

  beforeAll(async () => {
    s3 = await S3StandIn.start();
    await s3.put(keptKey, kept.bytes);
    work = fs.mkdtempSync(path.join(os.tmpdir(), `outpost-import-${panelKind}-`));
    mariadb = await startMariaDb();
    source = await makeSource(mariadb, work);
    // The database host the old panel made its servers' databases on: this MariaDB, a user with a password.
    const root = await mysql.createConnection({ uri: mariadb.url });
    await root.query("CREATE USER 'panelhost'@'127.0.0.1' IDENTIFIED BY 'host-pass-1'");
    await root.query("GRANT ALL PRIVILEGES ON *.* TO 'panelhost'@'127.0.0.1' WITH GRANT OPTION");
    await root.end();
    const hostUser = {
      host: mariadb.host,
      port: mariadb.port,
      username: "panelhost",
      password: "host-pass-1",
    };
    // The owner's keys there, made by ssh-keygen: an Ed25519 one, and an RSA one too short here.
    const keyOf = (name: string, args: string[]) => {
      const file = path.join(work, name);
      execFileSync("ssh-keygen", ["-q", "-N", "", "-C", `owner@${name}`, "-f", file, ...args]);
      return fs.readFileSync(`${file}.pub`, "utf8").trim();
    };
    ownerKey = path.join(work, "laptop");
    // The second Wings node is another host: the Terraria server's files are there, over its SFTP.
    const wingsVolumes = path.join(work, "wings2");
    const terraria = path.join(wingsVolumes, uuidOf(sourceServers[2].uuidShort));
    fs.mkdirSync(path.join(terraria, "Worlds"), { recursive: true });
    fs.writeFileSync(path.join(terraria, "serverconfig.txt"), "worldname=Old\n");
    // Past one SFTP read (32 KiB) many times over, and not a multiple of it.
    fs.writeFileSync(path.join(terraria, "Worlds", "Old.wld"), Buffer.alloc(300_001, 7));
    wings = await startWingsSftp(
      wingsVolumes,
      { username: sourceUsers.admin.username, password: sourceUsers.admin.password },
      uuidOf,
    );
    await fillSource(
      source.connection,
      hostUser,
      { laptop: keyOf("laptop", ["-t", "ed25519"]), old: keyOf("desktop", ["-t", "rsa", "-b", "1024"]) },
      { host: "127.0.0.1", sftpPort: wings.port },
      {
        kept: { bytes: kept.bytes.length, sha1: kept.sha1 },
        local: { bytes: local.bytes.length, sha1: local.sha1 },
      },
    );
    fs.mkdirSync(path.join(work, "wings-backups"));
    fs.writeFileSync(path.join(work, "wings-backups", `${sourceBackups.local.uuid}.tar.gz`), local.bytes);
    // A Wings volume for the Minecraft server: its files come along.
    const volume = path.join(work, "volumes", uuidOf(sourceServers[0].uuidShort));
    fs.mkdirSync(path.join(volume, "world"), { recursive: true });
    fs.writeFileSync(path.join(volume, "server.properties"), "motd=old panel\n");
    fs.writeFileSync(path.join(volume, "world", "level.dat"), Buffer.alloc(70_000, 3));
    // The bot's and the Cuberite server's volumes are on this host too, empty.
    for (const server of [sourceServers[1], sourceServers[3]])
      fs.mkdirSync(path.join(work, "volumes", uuidOf(server.uuidShort)));
    sourceBefore = await source.connection.checksum();
  }, 120_000);
  afterAll(async () => {
    await source?.connection.close();
    await wings?.close();
    await s3?.destroy();
    await mariadb?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const outpost = (...args: string[]) => {
    const { panel } = ready();
    return runToEnd(process.execPath, [bin, "import", panelKind, "--database", source.url, ...args], {
      env: {
        ...process.env,
        OUTPOST_DATA_DIR: panel.dataDir,
        DATABASE_URL: panel.databaseUrl ?? "",
        OUTPOST_IMPORT_SFTP_PASSWORD: sourceUsers.admin.password,
      },
      timeoutMs: 120_000,
    });
  };
  /**
   * A step of the guide as written, after the section's first block with this run's values in place
   * of the operator's (the old panel's database, its APP_KEY, the volumes, the remote node).
   */
  const readmeStep = (index: number) => {
    const { panel, nodeId } = ready();
    const [values, ...steps] = readmeImportSteps();
    expect(values).toContain("export SOURCE=");
    const ours = [
      `export SOURCE='${source.url}'`,
      `export APP_KEY='${appKey}'`,
      `export VOLUMES='${path.join(work, "volumes")}'`,
      `export NODE=${nodeId}`,
      `export SFTP_ADMIN='${sourceUsers.admin.username}'`,
      `export OUTPOST_IMPORT_SFTP_PASSWORD='${sourceUsers.admin.password}'`,
    ].join("\n");
    const script = `set -euo pipefail\n${ours}\n${steps[index]}`;
    return runToEnd("bash", ["-c", script], {
      env: { ...process.env, OUTPOST_DATA_DIR: panel.dataDir, DATABASE_URL: panel.databaseUrl ?? "" },
      timeoutMs: 180_000,
    });
  };
  const applyArgs = () => [
    "--apply",
    "--node",
    String(ready().nodeId),
    "--app-key",
    appKey,
    "--environment",
    "host",
    "--volumes",
    path.join(work, "volumes"),
    "--sftp",
    sourceUsers.admin.username,
  ];
  const importedRows = () =>
    withPanelDb(ready().panel, (db) =>
      db.selectFrom("imported").selectAll().orderBy("kind").orderBy("source_id").execute(),
    );

  it("dry runs by default: prints what it would create, map and skip, and writes nothing", async () => {
    const run = await (followReadme ? readmeStep(0) : outpost("--app-key", appKey));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("Dry run");
    expect(run.stdout).toMatch(
      /would create\s+user oldadmin <admin@old\.example> \(administrator\), password kept; two-factor sign-in kept/,
    );
    expect(run.stdout).toMatch(/would create\s+server old paper \(1a2b3c4d\) as 1a2b3c4d/);
    expect(run.stdout).toMatch(
      /would create\s+server old paper \(1a2b3c4d\) as 1a2b3c4d .*ports 0\.0\.0\.0:25565 and extra 0\.0\.0\.0:25575/,
    );
    expect(run.stdout).toMatch(
      /would create\s+allocations 0\.0\.0\.0: 8080, 25565-25566, 25575, 25580, 27000 of node wings-1 in the pool of/,
    );
    expect(run.stdout).toMatch(/would create\s+subuser friend1 on 1a2b3c4d with server\.view/);
    expect(run.stdout).toContain("control.restart (no equivalent here)");
    expect(run.stdout).toMatch(
      /would create\s+schedule "nightly restart" of 1a2b3c4d as a task \(0 4 \* \* \*, 3 steps\)/,
    );
    expect(run.stdout).toMatch(/would create\s+SSH key "laptop" of owner1 \(SHA256:\S+\) for SFTP sign-in/);
    expect(run.stdout).toMatch(/skip\s+SSH key "old desktop" of owner1: ErrSshKeyTooShort/);
    // No node here keeps its backups in a bucket yet: the S3 ones wait for one, saying so.
    expect(run.stdout).toContain(
      `skip         backup "before the update" of 1a2b3c4d (s3, ${kept.bytes.length} bytes): no S3 backup target is configured here`,
    );
    expect(run.stdout).toContain(
      `skip         backup "on the node's disk" of 3f4e5d6c (wings, ${local.bytes.length} bytes): on its Wings node's disk`,
    );
    expect(run.stdout).not.toContain("deleted there");
    expect(await importedRows()).toEqual([]);
    const login = await new PanelClient(ready().panel.url).login(
      sourceUsers.owner.email,
      sourceUsers.owner.password,
    );
    expect(login.status).toBe(400);
  });

  it("without the APP_KEY, tells who must enrol again and leaves the database host for later", async () => {
    const run = await outpost();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("two-factor sign-in: they enrol again (no --app-key given)");
    expect(run.stdout).toMatch(/skip\s+database host old mariadb .*give --app-key/);
  });

  it("applies: users sign in with their old password and code, servers, rights, tasks and databases come along", async () => {
    const { api, panel } = ready();
    // One short id is taken here already: that server gets a new one, and the run says so.
    const taken = await api.put("/api/servers/9c0d1e2f", {
      ...echoDefinition(),
      name: "already here",
      node: 0,
    });
    expect(taken.status, taken.text).toBe(200);
    // The node the servers go to keeps its backups in the bucket Wings wrote to (its own prefix).
    const target = await api.put(`/api/nodes/${ready().nodeId}`, { backupTarget: s3.target("outpost/") });
    expect(target.status, target.text).toBe(204);
    const run = await (followReadme ? readmeStep(1) : outpost(...applyArgs()));
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const moved =
      /create\s+server old terraria \(9c0d1e2f\) as ([0-9a-f]{8}) on node \d+;.*its id 9c0d1e2f is taken here/.exec(
        run.stdout,
      );
    expect(moved, run.stdout).not.toBeNull();
    const idOf = (shortId: string) => (shortId === "9c0d1e2f" ? (moved?.[1] as string) : shortId);
    expect(run.stdout).toMatch(/create\s+server old paper \(1a2b3c4d\) as 1a2b3c4d/);
    expect(run.stdout, run.stdout).not.toMatch(/^skip\s+server/m);
    // The S3 backup whose object is there becomes ours on that object; the one whose object is gone is skipped.
    expect(run.stdout).toContain(
      `create       backup "before the update" of 1a2b3c4d (s3, ${kept.bytes.length} bytes) from s3://${s3Bucket}/${keptKey}, where it is, pinned (locked there); not yet verified here`,
    );
    expect(run.stdout).toContain(
      `skip         backup "gone from the bucket" of 1a2b3c4d (s3, 4321 bytes): no object s3://${s3Bucket}/${uuidOf("1a2b3c4d")}/${sourceBackups.gone.uuid}.tar.gz (was it removed there?)`,
    );

    // The administrator: old password, then the old authenticator's code.
    const admin = new PanelClient(panel.url);
    expect((await admin.login(sourceUsers.admin.email, sourceUsers.admin.password)).body).toEqual({
      otpNeeded: true,
    });
    const otp = await admin.post("/auth/otp", { token: currentOtp(sourceUsers.admin.totp) });
    expect(otp.status, otp.text).toBe(200);
    expect(otp.body.scopes).toEqual(["admin"]);
    // The bcrypt hash became ours at that first sign-in.
    const hash = await withPanelDb(panel, (db) =>
      db
        .selectFrom("users")
        .select("password_hash")
        .where("email", "=", sourceUsers.admin.email)
        .executeTakeFirstOrThrow(),
    );
    expect(hash.password_hash).toMatch(/^\$argon2id\$/);
    expect((await new PanelClient(panel.url).login(sourceUsers.admin.email, "wrong-pass-1")).status).toBe(
      400,
    );

    // The owner's language ("de" there) is their locale here.
    const locale = await withPanelDb(panel, (db) =>
      db
        .selectFrom("user_settings")
        .innerJoin("users", "users.id", "user_settings.user_id")
        .select("user_settings.value")
        .where("users.email", "=", sourceUsers.owner.email)
        .where("user_settings.key", "=", "locale")
        .executeTakeFirst(),
    );
    expect(locale?.value).toBe("de_DE");

    // The servers, each with its short id, on the chosen node, owned by their owner.
    for (const server of sourceServers) {
      const got = await api.get(`/api/servers/${idOf(server.uuidShort)}`);
      expect(got.status, got.text).toBe(200);
      expect(got.body.server.node.id).toBe(ready().nodeId);
      expect(got.body.server.name).toBe(`old ${server.egg}`);
      const data = await api.get(`/api/servers/${idOf(server.uuidShort)}/data`);
      expect(data.body.data.port.value).toBe(server.port);
      expect(data.body.data.memory.value).toBe(server.memory);
    }
    // Their limits, swap, IO weight and CPU threads among them; what cannot be held is said.
    const limitsOf = async (shortId: string) =>
      (await api.get(`/api/servers/${idOf(shortId)}/definition`)).body.limits;
    const usual = { diskMiB: 10240, cpuPercent: 200 };
    expect(await limitsOf("1a2b3c4d")).toEqual({ memoryMiB: 2048, ...usual });
    expect(await limitsOf("5e6f7a8b")).toEqual({
      memoryMiB: 512,
      ...usual,
      swapMiB: 256,
      ioWeight: 700,
      cpuThreads: "0,1",
    });
    expect(await limitsOf("9c0d1e2f")).toEqual({ memoryMiB: 1024, ...usual, swapMiB: "unlimited" });
    expect(await limitsOf("3f4e5d6c")).toEqual({ memoryMiB: 1024, ...usual });
    expect(run.stdout).toMatch(
      /server old cuberite .*not kept: IO weight 5 \(outside 10-1000\), CPU threads 0- \(/,
    );
    expect(run.stdout).not.toMatch(/server old (paper|muse|terraria) .*not kept/);
    // Each server holds its ports: the Minecraft one its primary and its extra one; the node's
    // pool has the source's free port too, with its alias.
    const held = await api.get("/api/servers/1a2b3c4d/allocations");
    expect(held.status, held.text).toBe(200);
    expect(
      held.body.allocations.map((a: { ip: string; port: number; primary: boolean }) => [
        a.ip,
        a.port,
        a.primary,
      ]),
    ).toEqual([
      ["0.0.0.0", 25565, true],
      ["0.0.0.0", 25575, false],
    ]);
    const pool = (await api.get(`/api/nodes/${ready().nodeId}/allocations`)).body as {
      port: number;
      alias?: string;
      serverId: string | null;
    }[];
    expect(pool.map((a) => [a.port, a.serverId, a.alias ?? null])).toEqual([
      [7777, idOf("9c0d1e2f"), null],
      [8080, "3f4e5d6c", null],
      [25565, "1a2b3c4d", null],
      [25566, "3f4e5d6c", null],
      [25575, "1a2b3c4d", null],
      [25580, null, "play.old.example"],
      [27000, "5e6f7a8b", null],
    ]);
    // Cuberite holds its primary and its extra one; its web port, a plain variable of its egg
    // (not named as a port is here), keeps its value and takes no allocation.
    const cuberite = (await api.get("/api/servers/3f4e5d6c/allocations")).body.allocations as {
      port: number;
      primary: boolean;
      variable?: string;
    }[];
    expect(cuberite.map((a) => [a.port, a.primary, a.variable ?? null])).toEqual([
      [25566, true, "port"],
      [8080, false, null],
    ]);
    expect((await api.get("/api/servers/3f4e5d6c/data")).body.data.WEB_PORT.value).toBe(8081);
    const paperData = (await api.get("/api/servers/1a2b3c4d/data")).body.data;
    expect(paperData.MINECRAFT_VERSION.value).toBe("1.20.4");

    // The subuser sees exactly the mapped rights.
    const friend = new PanelClient(panel.url);
    expect((await friend.login(sourceUsers.friend.email, sourceUsers.friend.password)).status).toBe(200);
    const perms = await friend.get("/api/servers/1a2b3c4d?perms");
    expect(perms.status, perms.text).toBe(200);
    expect([...perms.body.permissions.scopes].sort()).toEqual([...friendScopes].sort());
    expect((await friend.get("/api/servers/5e6f7a8b")).status).toBe(403);
    expect((await friend.get("/api/servers/1a2b3c4d/file/")).status).toBe(403);

    // The schedule is a task, its offset a sleep before the restart.
    const tasks = await api.get("/api/servers/1a2b3c4d/tasks");
    expect(tasks.status, tasks.text).toBe(200);
    const task = Object.values(tasks.body.tasks ?? {})[0] as {
      name: string;
      cronSchedule: string;
      operations: unknown[];
    };
    expect(task).toMatchObject({ name: "nightly restart", cronSchedule: "0 4 * * *", enabled: true });
    expect(task.operations).toEqual([
      { type: "console", message: "say restarting in 30 s" },
      { type: "sleep", duration: "30s" },
      { type: "restart" },
    ]);
    // It fires: it has a next run on its schedule, and run now, with the owner's rights (the old
    // panel's owner authors it), it sends its line and finds the server stopped.
    const { id: taskId, nextRun } = task as unknown as { id: string; nextRun: string | null };
    expect(nextRun).toEqual(expect.any(String));
    const fired = await api.post(`/api/servers/1a2b3c4d/tasks/${taskId}/run`);
    expect(fired.status, fired.text).toBe(202);
    type Run = {
      finished: string | null;
      success: boolean | null;
      message: string;
      trigger: string;
      output: string;
    };
    let runs: Run[] = [];
    await waitUntil(async () => {
      runs = (await api.get(`/api/servers/1a2b3c4d/tasks/${taskId}/runs`)).body as Run[];
      return runs.some((r) => r.finished !== null);
    }, 20_000);
    expect(runs[0]).toMatchObject({
      trigger: "manual",
      success: false,
      message: "operation 1 (console): console: the server is not running",
    });
    expect(runs[0]?.output).toContain("Sending to the console: say restarting in 30 s");

    // The database, its password kept.
    const databases = await api.get("/api/servers/1a2b3c4d/databases?passwords=true");
    expect(databases.status, databases.text).toBe(200);
    expect(databases.body.databases).toEqual([
      expect.objectContaining({ name: "s1_world", username: "u1_abcdef", password: "world-db-pass" }),
    ]);

    // The owner signs in to SFTP with the key they had there, and finds the old files.
    const sftp = await runSftp(
      {
        port: ready().daemon.config.sftp.port,
        user: `${sourceUsers.owner.email}#1a2b3c4d`,
        password: "",
        identity: ownerKey,
      },
      ["ls -1"],
    );
    expect(sftp.code, sftp.stdout + sftp.stderr).toBe(0);
    expect(sftp.stdout).toContain("server.properties");

    // The Terraria server's files came over its Wings node's SFTP, each of its size; nothing
    // there was written.
    expect(run.stdout).toMatch(
      new RegExp(`create\\s+files of old terraria from SFTP 127\\.0\\.0\\.1:${wings.port}: 2 copied`),
    );
    expect(run.stdout).toMatch(/files of old terraria: over SFTP from 127\.0\.0\.1:\d+, host key SHA256:/);
    expect((await api.get(`/api/servers/${idOf("9c0d1e2f")}/file/serverconfig.txt`)).text).toBe(
      "worldname=Old\n",
    );
    const worlds = await api.get(`/api/servers/${idOf("9c0d1e2f")}/file/Worlds`);
    expect(worlds.body.filter((e: { name: string }) => e.name !== "..")).toEqual([
      expect.objectContaining({ name: "Old.wld", size: 300_001 }),
    ]);
    expect(wings.writes).toEqual([]);

    // The files of its Wings volume.
    const properties = await api.get("/api/servers/1a2b3c4d/file/server.properties");
    expect(properties.text).toBe("motd=old panel\n");
    const world = await api.get("/api/servers/1a2b3c4d/file/world");
    expect(world.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "level.dat", size: 70_000 })]),
    );
  });

  it("the old panel's S3 backup is a backup here on the same object: listed, downloaded, verified, restored", async () => {
    const { api } = ready();
    const list = await api.get<Backup[]>("/api/servers/1a2b3c4d/backup");
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        name: "before the update",
        fileName: `${sourceBackups.kept.uuid}.tar.gz`,
        state: "ready",
        size: kept.bytes.length,
        createdAt: "2024-05-01T12:00:00.000Z",
        pinned: true,
      }),
    ]);
    const backup = list.body[0] as Backup;
    // Not verified here yet: Wings' SHA-1 is not our kind of checksum.
    expect(backup.sha256).toBeUndefined();
    expect(backup.lastVerification).toBeUndefined();
    // Nothing was copied: the bucket holds Wings' object and no other.
    expect(await s3.keysUnder("")).toEqual([keptKey]);
    // A dry run asks the bucket (a HEAD through the node) for what it has not adopted yet.
    const { nodeId } = ready();
    const dry = await outpost("--node", String(nodeId), "--backup-target", String(nodeId));
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /keep\s+backup "before the update" of 1a2b3c4d \(s3, \d+ bytes\): imported before/,
    );
    expect(dry.stdout).toMatch(
      /skip\s+backup "gone from the bucket" of 1a2b3c4d \(s3, 4321 bytes\): no object s3:\/\//,
    );
    const elsewhere = await outpost("--node", String(nodeId), "--backup-target", "999");
    expect(elsewhere.stdout).toContain(
      'skip         backup "gone from the bucket" of 1a2b3c4d (s3, 4321 bytes): node 999 (--backup-target) has no S3 backup target',
    );
    const { res, bytes } = await downloadBytes(api, `/api/servers/1a2b3c4d/backup/download/${backup.id}`);
    expect(res.status).toBe(200);
    expect(bytes.equals(kept.bytes)).toBe(true);
    // Its first verification checks the bytes against Wings' SHA-1, then keeps our SHA-256.
    const verified = await api.post(`/api/servers/1a2b3c4d/backup/${backup.id}/verify`);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ ok: true });
    const after = (await api.get<Backup>(`/api/servers/1a2b3c4d/backup/${backup.id}`)).body;
    expect(after.sha256).toBe(createHash("sha256").update(kept.bytes).digest("hex"));
    expect(after.lastVerification).toMatchObject({ ok: true });
    // Restored into the server, its files are the backup's again.
    const changed = await api.put("/api/servers/1a2b3c4d/file/server.properties", undefined, {
      raw: "motd=changed here\n",
    });
    expect(changed.status, changed.text).toBe(204);
    const restored = await api.post(`/api/servers/1a2b3c4d/backup/restore/${backup.id}`);
    expect(restored.status, restored.text).toBe(204);
    expect((await api.get("/api/servers/1a2b3c4d/file/server.properties")).text).toBe("motd=old panel\n");
    expect((await api.get("/api/servers/1a2b3c4d/file/from-the-backup.txt")).text).toBe(
      "made before the update\n",
    );
  });

  it("a backup on a Wings node's disk comes from --backups DIR onto the node's disk, checked against Wings' SHA-1", async () => {
    const { api } = ready();
    const folder = path.join(work, "wings-backups");
    // A folder that is not that node's backups folder: the dry run says what it looked for.
    const elsewhere = fs.mkdtempSync(path.join(work, "not-backups-"));
    const dry = await outpost("--node", String(ready().nodeId), "--backups", elsewhere);
    expect(dry.stdout).toContain(
      `skip         backup "on the node's disk" of 3f4e5d6c (wings, ${local.bytes.length} bytes): no file ${elsewhere}/${sourceBackups.local.uuid}.tar.gz`,
    );
    const run = await outpost(...applyArgs(), "--backups", folder);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `create       backup "on the node's disk" of 3f4e5d6c (wings, ${local.bytes.length} bytes) from ${folder}/${sourceBackups.local.uuid}.tar.gz, copied onto its node's disk; checked against Wings' SHA-1`,
    );
    expect(run.stdout).toMatch(/done: 1 created/);
    const list = await api.get<Backup[]>("/api/servers/3f4e5d6c/backup");
    expect(list.body).toEqual([
      expect.objectContaining({
        name: "on the node's disk",
        state: "ready",
        size: local.bytes.length,
        createdAt: "2024-05-01T12:00:00.000Z",
        pinned: false,
        sha256: createHash("sha256").update(local.bytes).digest("hex"),
      }),
    ]);
    const backup = list.body[0] as Backup;
    const { bytes } = await downloadBytes(api, `/api/servers/3f4e5d6c/backup/download/${backup.id}`);
    expect(bytes.equals(local.bytes)).toBe(true);
    // Copied, not pointed at: the bucket has only the S3 backup's object.
    expect(await s3.keysUnder("")).toEqual([keptKey]);
    const restored = await api.post(`/api/servers/3f4e5d6c/backup/restore/${backup.id}`);
    expect(restored.status, restored.text).toBe(204);
    expect((await api.get("/api/servers/3f4e5d6c/file/settings.ini")).text).toBe("[Server]\nPorts=25566\n");
  });

  it("a second run changes nothing, and the source was never written", async () => {
    const before = await importedRows();
    const counts = () =>
      withPanelDb(ready().panel, async (db) => ({
        users: (await db.selectFrom("users").select("id").execute()).length,
        servers: (await db.selectFrom("servers").select("id").execute()).length,
        permissions: await db
          .selectFrom("permissions")
          .selectAll()
          .orderBy("user_id")
          .orderBy("server_id")
          .execute(),
        databases: (await db.selectFrom("server_databases").select("id").execute()).length,
        templates: (await db.selectFrom("templates").select("name").execute()).length,
        sshKeys: await db.selectFrom("ssh_keys").select(["user_id", "fingerprint"]).orderBy("id").execute(),
        allocations: await db.selectFrom("allocations").selectAll().orderBy("id").execute(),
        backups: await db.selectFrom("backups").selectAll().orderBy("id").execute(),
      }));
    const was = await counts();
    const run = await outpost(...applyArgs());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/done: 0 created, \d+ mapped, \d+ kept from an earlier run, 2 skipped/);
    expect(run.stdout).toMatch(
      /keep\s+backup "before the update" of 1a2b3c4d \(s3, \d+ bytes\): imported before/,
    );
    expect(await importedRows()).toEqual(before);
    expect(await counts()).toEqual(was);
    const tasks = await ready().api.get("/api/servers/1a2b3c4d/tasks");
    expect(Object.keys(tasks.body.tasks)).toHaveLength(1);
    expect(await source.connection.checksum()).toBe(sourceBefore);
  });

  it("a copy cut short goes on: a file here of another size is fetched again, the rest left alone", async () => {
    const { api } = ready();
    const terraria = (await importedRows()).find((r) => r.kind === "server" && r.source_id === "3")
      ?.our_id as string;
    const cut = await api.put(`/api/servers/${terraria}/file/Worlds/Old.wld`, undefined, { raw: "half" });
    expect(cut.status, cut.text).toBe(204);
    const run = await outpost(...applyArgs());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /create\s+files of old terraria from SFTP [^:]+:\d+: 1 copied, 1 already there \(300001 bytes\)/,
    );
    expect(run.stdout).toMatch(/done: 1 created/);
    const worlds = await api.get(`/api/servers/${terraria}/file/Worlds`);
    expect(worlds.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Old.wld", size: 300_001 })]),
    );
    expect(wings.writes).toEqual([]);
  });

  it("a later run adds what is new there; a server whose port another server here took stays behind, saying why", async () => {
    const { api, nodeId } = ready();
    // Meanwhile here: port 25591 joined the node's pool, and a server took it.
    const pooled = await api.post(`/api/nodes/${nodeId}/allocations`, { ip: "0.0.0.0", ports: "25591" });
    expect(pooled.status, pooled.text).toBe(200);
    const here = await api.put("/api/servers/0d0d0d0d", {
      ...echoDefinition(),
      name: "here first",
      node: nodeId,
      ports: { port: 25591 },
    });
    expect(here.status, here.text).toBe(200);
    // Meanwhile there: two new servers, on 25590 and on 25591 (their volumes on this host).
    await addLaterServer(source.connection, 5, "7b8c9d0e", 25590);
    await addLaterServer(source.connection, 6, "6a5b4c3d", 25591);
    for (const shortId of ["7b8c9d0e", "6a5b4c3d"]) fs.mkdirSync(path.join(work, "volumes", uuidOf(shortId)));
    const run = await outpost(...applyArgs());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/create\s+allocations 0\.0\.0\.0: 25590 of node wings-1 in the pool of node/);
    expect(run.stdout).toMatch(
      /map\s+allocations 0\.0\.0\.0: 25591 of node wings-1 → those node \d+ has already/,
    );
    expect(run.stdout).toMatch(/create\s+server old paper 5 \(7b8c9d0e\) as 7b8c9d0e/);
    const refused = /skip\s+server old paper 6 \(6a5b4c3d\): (.*)$/m.exec(run.stdout)?.[1];
    expect(refused).toMatch(/^ErrPortTaken .*"server":"0d0d0d0d"/);
    expect(refused).not.toContain("daemon");
    expect(run.stdout).toMatch(/keep\s+server old paper \(1a2b3c4d\): imported before/);
    const held = (await api.get("/api/servers/7b8c9d0e/allocations")).body.allocations;
    expect(held).toEqual([expect.objectContaining({ ip: "0.0.0.0", port: 25590, primary: true })]);
    expect((await api.get("/api/servers/6a5b4c3d")).status).toBe(404);
  });

  it("an imported server starts and listens on its imported primary port", async () => {
    const { api } = ready();
    // There, an administrator's startup line for the server: a small listener (in its volume)
    // on the port Wings gives it, {{SERVER_PORT}}; on loopback here, as tests bind.
    const port = await freePort();
    await addLaterServer(source.connection, 7, "4e5f6a7b", port, {
      egg: "muse",
      startup: "node listener.js {{SERVER_PORT}}",
    });
    const volume = path.join(work, "volumes", uuidOf("4e5f6a7b"));
    fs.mkdirSync(volume);
    fs.writeFileSync(
      path.join(volume, "listener.js"),
      [
        "const port = Number(process.argv[2]);",
        'require("node:net").createServer((c) => c.end(`listening on ${port}\\n`))',
        '  .listen(port, "127.0.0.1", () => console.log(`Running version listener on ${port}`));',
      ].join("\n"),
    );
    const run = await outpost(...applyArgs());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`create\\s+server old muse 7 \\(4e5f6a7b\\) as 4e5f6a7b .*ports 0\\.0\\.0\\.0:${port}`),
    );
    expect((await api.get("/api/servers/4e5f6a7b/data")).body.data.port.value).toBe(port);
    const started = await api.post("/api/servers/4e5f6a7b/start");
    expect(started.status, started.text).toBe(204);
    try {
      let answer = "";
      await waitUntil(async () => {
        answer = await new Promise<string>((resolve) => {
          const socket = net.connect(port, "127.0.0.1");
          let got = "";
          socket.setEncoding("utf8").on("data", (d) => (got += d));
          socket.on("end", () => resolve(got));
          socket.on("error", () => resolve(""));
        });
        return answer !== "";
      }, 30_000);
      expect(answer).toBe(`listening on ${port}\n`);
    } finally {
      await api.post("/api/servers/4e5f6a7b/kill");
    }
  });

  it("without --node, each Wings node becomes a remote node waiting for its daemon, its config printed", async () => {
    const run = await outpost("--app-key", appKey, "--apply");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /create\s+node wings-1 \(wings1\.old\.example\) as node \d+, waiting for its daemon/,
    );
    expect(run.stdout).toContain("outpost daemon --config /etc/outpost/node.json");
    const config = JSON.parse((/^\s+(\{"nodeId".*\})$/m.exec(run.stdout) as RegExpExecArray)[1] as string);
    expect(config).toMatchObject({ listen: { port: 8080 }, sftp: { port: 2022 } });
    const nodes = (await ready().api.get("/api/nodes")).body as { name: string; publicHost: string }[];
    expect(nodes.map((n) => [n.name, n.publicHost])).toEqual(
      expect.arrayContaining([
        ["wings-1", "wings1.old.example"],
        ["wings-2", "127.0.0.1"],
      ]),
    );
    // Once made, they are kept like the rest.
    const again = await outpost("--app-key", appKey, "--apply");
    expect(again.stdout).toMatch(/keep\s+node wings-1 \(wings1\.old\.example\): imported before/);
    expect(again.stdout).toMatch(/done: 0 created/);
  });
}
