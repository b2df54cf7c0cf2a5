import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { enableOtp, setGlobalScopes, setServerScopes } from "../support/panel-db.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { type Run, runSftp, type SshLogin } from "../support/sftp-client.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";
import { SoftwareAuthenticator } from "../support/webauthn-authenticator.ts";

const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-sftp-keys-"));
afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

/** A key pair made by ssh-keygen: the private key's file and the public key's line. */
function keyPair(name: string, args = ["-t", "ed25519"]): { file: string; line: string } {
  const file = path.join(keyDir, name);
  execFileSync("ssh-keygen", ["-q", "-N", "", "-C", `${name}@laptop`, "-f", file, ...args]);
  return { file, line: fs.readFileSync(`${file}.pub`, "utf8").trim() };
}

function expectIn(run: Run): void {
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("Remote working directory: /");
}

function expectRefused(run: Run): void {
  expect(run.code, run.stdout + run.stderr).not.toBe(0);
  expect(run.stderr).toMatch(/Permission denied/);
}

const sftpScopes = ["server.view", "server.sftp", "server.files.view", "server.files.edit"];

describe("SSH keys for SFTP (issue 39)", () => {
  const panel = usePanel();
  const serverId = "sshkey0local";
  const owner = newUser("keyowner");
  const stranger = newUser("keystranger");
  const guarded = newUser("keyotp");
  let admin: Client;
  let ownerApi: Client;
  let strangerApi: Client;
  const ed = keyPair("ed");
  const ecdsa = keyPair("ecdsa", ["-t", "ecdsa", "-b", "256"]);
  const rsa = keyPair("rsa", ["-t", "rsa", "-b", "3072"]);
  const unknown = keyPair("unknown");
  const guardedKey = keyPair("guarded");

  const login = (
    user: { email: string; password: string },
    port: number,
    identity?: string,
    id = serverId,
  ): SshLogin => ({
    port,
    user: `${user.email}#${id}`,
    password: user.password,
    identity,
  });

  beforeAll(async () => {
    admin = await adminClient(panel());
    await createEchoServer(admin, serverId, { name: serverId });
    ownerApi = await registeredClient(panel(), owner);
    strangerApi = await registeredClient(panel(), stranger);
    const guardedApi = await registeredClient(panel(), guarded);
    for (const user of [owner, stranger, guarded])
      await setServerScopes(panel(), user.email, serverId, sftpScopes);
    const added = await guardedApi.post("/api/self/ssh-keys", { publicKey: guardedKey.line });
    expect(added.status, added.text).toBe(200);
    await enableOtp(panel(), guarded.email);
  });

  describe("the account's keys", () => {
    it("adds ed25519, ECDSA and RSA keys, fingerprinted as ssh-keygen prints them, named by their comment", async () => {
      for (const key of [ed, ecdsa, rsa]) {
        const res = await ownerApi.post("/api/self/ssh-keys", { publicKey: key.line });
        expect(res.status, res.text).toBe(200);
        const printed = execFileSync("ssh-keygen", [
          "-l",
          "-E",
          "sha256",
          "-f",
          `${key.file}.pub`,
        ]).toString();
        expect(res.body.fingerprint).toBe(/SHA256:\S+/.exec(printed)?.[0]);
        expect(res.body.name).toBe(key.line.split(" ")[2]);
      }
      const list = await ownerApi.get("/api/self/ssh-keys");
      expect(list.status).toBe(200);
      expect(list.body.map((k: { algorithm: string; bits: number }) => [k.algorithm, k.bits])).toEqual([
        ["ssh-ed25519", 256],
        ["ecdsa-sha2-nistp256", 256],
        ["ssh-rsa", 3072],
      ]);
      // Keys are each account's own.
      expect((await strangerApi.get("/api/self/ssh-keys")).body).toEqual([]);
    });

    it("refuses short RSA keys, other types, garbage and a key already there, saying why", async () => {
      const short = keyPair("short", ["-t", "rsa", "-b", "1024"]);
      expectError(
        await ownerApi.post("/api/self/ssh-keys", { publicKey: short.line }),
        400,
        "ErrSshKeyTooShort",
        {
          min: 2048,
          bits: 1024,
        },
      );
      const body = ed.line.split(" ")[1];
      expectError(
        await ownerApi.post("/api/self/ssh-keys", { publicKey: `ssh-dss ${body}` }),
        400,
        "ErrSshKeyType",
        { type: "ssh-dss" },
      );
      expectError(
        await ownerApi.post("/api/self/ssh-keys", { publicKey: "not a key" }),
        400,
        "ErrSshKeyInvalid",
      );
      expectError(
        await ownerApi.post("/api/self/ssh-keys", { name: "again", publicKey: ed.line }),
        409,
        "ErrSshKeyExists",
      );
    });

    it("removes a key only from its own account", async () => {
      const made = await ownerApi.post("/api/self/ssh-keys", {
        name: "temporary",
        publicKey: keyPair("temp").line,
      });
      expect(made.status, made.text).toBe(200);
      expectError(await strangerApi.delete(`/api/self/ssh-keys/${made.body.id}`), 404, "ErrSshKeyNotFound");
      expect((await ownerApi.delete(`/api/self/ssh-keys/${made.body.id}`)).status).toBe(204);
      const names = (await ownerApi.get("/api/self/ssh-keys")).body.map((k: { name: string }) => k.name);
      expect(names).not.toContain("temporary");
    });

    it("needs self.edit", async () => {
      const barred = newUser("keybarred");
      const api = await registeredClient(panel(), barred);
      await setGlobalScopes(panel(), barred.email, ["login"]);
      expectError(await api.get("/api/self/ssh-keys"), 403, "ErrMissingScope", { scope: "self.edit" });
      expectError(await api.post("/api/self/ssh-keys", { publicKey: ed.line }), 403, "ErrMissingScope", {
        scope: "self.edit",
      });
      expectError(await api.delete("/api/self/ssh-keys/1"), 403, "ErrMissingScope", { scope: "self.edit" });
    });

    it("records adding and removing in the activity log", async () => {
      const log = await admin.get(`/api/activity?action=self.sshKey.create`);
      expect(log.status, log.text).toBe(200);
      expect(JSON.stringify(log.body)).toContain(owner.username);
      expect(JSON.stringify(log.body)).not.toContain(ed.line.split(" ")[1]);
      const removed = await admin.get(`/api/activity?action=self.sshKey.delete`);
      expect(JSON.stringify(removed.body)).toContain(owner.username);
    });
  });

  describe("signing in to the local node's SFTP", () => {
    it("lets each of the account's keys in, and no other key", async () => {
      for (const key of [ed, ecdsa, rsa])
        expectIn(await runSftp(login(owner, panel().sftpPort, key.file), ["pwd"]));
      expectRefused(await runSftp(login(owner, panel().sftpPort, unknown.file), ["pwd"]));
      // Another account's key opens nothing of this one.
      expectRefused(await runSftp(login(stranger, panel().sftpPort, ed.file), ["pwd"]));
      // A key needs server.sftp like a password.
      const other = "sshkey0other";
      await createEchoServer(admin, other, { name: other });
      expectRefused(await runSftp(login(owner, panel().sftpPort, ed.file, other), ["pwd"]));
    });

    it("marks a key used", async () => {
      const keys = (await ownerApi.get("/api/self/ssh-keys")).body as {
        name: string;
        lastUsedAt: number | null;
      }[];
      expect(keys.find((k) => k.name === "ed@laptop")?.lastUsedAt).toEqual(expect.any(Number));
    });

    it("refuses the password of an account with two-factor sign-in unless panel.sftp.passwordWith2fa is on; its key works", async () => {
      expectRefused(await runSftp(login(guarded, panel().sftpPort), ["pwd"]));
      expectIn(await runSftp(login(guarded, panel().sftpPort, guardedKey.file), ["pwd"]));
      // Without two-factor, the password goes on working.
      expectIn(await runSftp(login(stranger, panel().sftpPort), ["pwd"]));
      expect((await admin.put("/api/settings/panel.sftp.passwordWith2fa", { value: true })).status).toBe(204);
      try {
        expectIn(await runSftp(login(guarded, panel().sftpPort), ["pwd"]));
      } finally {
        await admin.put("/api/settings/panel.sftp.passwordWith2fa", { value: false });
      }
      expectRefused(await runSftp(login(guarded, panel().sftpPort), ["pwd"]));
    });
  });

  describe("an account that must still set up two-factor", () => {
    const pending = newUser("keypending");
    const keeper = newUser("keykeeper");
    const pendingKey = keyPair("pending");
    let keeperApi: Client;

    beforeAll(async () => {
      const pendingApi = await registeredClient(panel(), pending);
      expect((await pendingApi.post("/api/self/ssh-keys", { publicKey: pendingKey.line })).status).toBe(200);
      await setServerScopes(panel(), pending.email, serverId, sftpScopes);
      // An administrator with two-factor, who may still change settings while the panel requires it.
      keeperApi = await registeredClient(panel(), keeper);
      await setGlobalScopes(panel(), keeper.email, ["login", "admin"]);
      await enableOtp(panel(), keeper.email);
    });

    it("is refused by password and by key while a role requires it, and let in once the role goes", async () => {
      expectIn(await runSftp(login(pending, panel().sftpPort, pendingKey.file), ["pwd"]));
      const role = await admin.post("/api/roles", { name: "Strict SFTP", scopes: [], require2fa: true });
      expect(role.status, role.text).toBe(200);
      const userId = (await admin.get(`/api/users?email=${encodeURIComponent(pending.email)}`)).body.users[0]
        .id;
      expect((await admin.put(`/api/users/${userId}/roles`, { roles: [role.body.id] })).status).toBe(200);
      expectRefused(await runSftp(login(pending, panel().sftpPort), ["pwd"]));
      expectRefused(await runSftp(login(pending, panel().sftpPort, pendingKey.file), ["pwd"]));
      // An account with two-factor is not held by the role.
      const guardedId = (await admin.get(`/api/users?email=${encodeURIComponent(guarded.email)}`)).body
        .users[0].id;
      expect((await admin.put(`/api/users/${guardedId}/roles`, { roles: [role.body.id] })).status).toBe(200);
      expectIn(await runSftp(login(guarded, panel().sftpPort, guardedKey.file), ["pwd"]));
      expect((await admin.delete(`/api/roles/${role.body.id}`)).status).toBe(204);
      expectIn(await runSftp(login(pending, panel().sftpPort, pendingKey.file), ["pwd"]));
      expectIn(await runSftp(login(pending, panel().sftpPort), ["pwd"]));
    });

    it("lets in by key an account whose second factor is a passkey, held by a role; its password as with an app code", async () => {
      const passkeyUser = newUser("keypasskey");
      const passkeyKey = keyPair("passkey-user");
      const api = await registeredClient(panel(), passkeyUser);
      expect((await api.post("/api/self/ssh-keys", { publicKey: passkeyKey.line })).status).toBe(200);
      await setServerScopes(panel(), passkeyUser.email, serverId, sftpScopes);
      const options = await api.post("/api/self/passkeys/options");
      const added = await api.post("/api/self/passkeys", {
        name: "Phone",
        response: SoftwareAuthenticator.create().register(options.body, panel().url),
      });
      expect(added.status, added.text).toBe(200);
      const role = await admin.post("/api/roles", {
        name: "Strict passkey SFTP",
        scopes: [],
        require2fa: true,
      });
      const userId = (await api.get("/api/self")).body.id;
      expect((await admin.put(`/api/users/${userId}/roles`, { roles: [role.body.id] })).status).toBe(200);
      try {
        expectIn(await runSftp(login(passkeyUser, panel().sftpPort, passkeyKey.file), ["pwd"]));
        // Two-factor is on: its password alone is not enough (panel.sftp.passwordWith2fa is off).
        expectRefused(await runSftp(login(passkeyUser, panel().sftpPort), ["pwd"]));
        // Its passkey gone, the role holds it to enrol again: its key opens nothing.
        expect((await admin.put(`/api/users/${userId}/roles`, { roles: [] })).status).toBe(200);
        expect((await api.delete(`/api/self/passkeys/${added.body.id}`)).status).toBe(204);
        expect((await admin.put(`/api/users/${userId}/roles`, { roles: [role.body.id] })).status).toBe(200);
        expectRefused(await runSftp(login(passkeyUser, panel().sftpPort, passkeyKey.file), ["pwd"]));
      } finally {
        expect((await admin.delete(`/api/roles/${role.body.id}`)).status).toBe(204);
      }
    });

    it("is refused by password and by key while the panel requires it of everyone", async () => {
      const setting = "/api/settings/panel.security.require2fa";
      expect((await keeperApi.put(setting, { value: true })).status).toBe(204);
      try {
        expectRefused(await runSftp(login(pending, panel().sftpPort), ["pwd"]));
        expectRefused(await runSftp(login(pending, panel().sftpPort, pendingKey.file), ["pwd"]));
        expectIn(await runSftp(login(guarded, panel().sftpPort, guardedKey.file), ["pwd"]));
      } finally {
        expect((await keeperApi.put(setting, { value: false })).status).toBe(204);
      }
      expectIn(await runSftp(login(pending, panel().sftpPort, pendingKey.file), ["pwd"]));
    });
  });

  describe("signing in to a remote node's SFTP (the node asks the panel)", () => {
    const remoteId = "sshkey0remote";
    let daemon: DaemonProcess;

    beforeAll(async () => {
      const added = await addRemoteNode(admin, "sshkey-remote");
      daemon = added.daemon;
      await createEchoServer(admin, remoteId, { name: remoteId, node: added.nodeId });
      for (const user of [owner, guarded]) await setServerScopes(panel(), user.email, remoteId, sftpScopes);
    });
    afterAll(async () => {
      await daemon?.destroy();
    });

    it("lets the account's key in, refuses an unknown key and a two-factor account's password", async () => {
      const port = daemon.config.sftp.port;
      expectIn(await runSftp(login(owner, port, ed.file, remoteId), ["pwd"]));
      expectRefused(await runSftp(login(owner, port, unknown.file, remoteId), ["pwd"]));
      expectRefused(await runSftp(login(guarded, port, undefined, remoteId), ["pwd"]));
      expectIn(await runSftp(login(guarded, port, guardedKey.file, remoteId), ["pwd"]));
      // The password of an account without two-factor still works there.
      expectIn(await runSftp(login(owner, port, undefined, remoteId), ["pwd"]));
      // Held to set up two-factor by a role, the account's key opens nothing there either.
      const role = await admin.post("/api/roles", { name: "Strict remote", scopes: [], require2fa: true });
      expect(role.status, role.text).toBe(200);
      const ownerId = (await ownerApi.get("/api/self")).body.id;
      expect((await admin.put(`/api/users/${ownerId}/roles`, { roles: [role.body.id] })).status).toBe(200);
      expectRefused(await runSftp(login(owner, port, ed.file, remoteId), ["pwd"]));
      expectRefused(await runSftp(login(owner, port, undefined, remoteId), ["pwd"]));
      expect((await admin.delete(`/api/roles/${role.body.id}`)).status).toBe(204);
      expectIn(await runSftp(login(owner, port, ed.file, remoteId), ["pwd"]));
    });
  });
});
