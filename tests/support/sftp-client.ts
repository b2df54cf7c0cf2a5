import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SshLogin {
  port: number;
  user: string;
  password: string;
  host?: string;
  /** A private key file: the client signs in with it alone (no agent, no password). */
  identity?: string;
}

let askpassScript: string | undefined;

/**
 * A script OpenSSH runs to ask for the password (SSH_ASKPASS): it prints the
 * password handed to it in the environment, so the password is never written
 * to a file and OpenSSH needs no terminal.
 */
function askpass(): string {
  if (askpassScript) return askpassScript;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-askpass-"));
  askpassScript = path.join(dir, "askpass.sh");
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(askpassScript, "#!/bin/sh\nprintf '%s\\n' \"$OUTPOST_TEST_SSH_PASSWORD\"\n", {
    mode: 0o700,
  });
  return askpassScript;
}

/**
 * Options for a throwaway client: no config, no known hosts, password only and asked once — or,
 * given a key file, that key alone.
 */
function clientOptions(port: number, portFlag: "-P" | "-p", identity?: string): string[] {
  const methods = identity
    ? [
        "-i",
        identity,
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "IdentityAgent=none",
        "-o",
        "PreferredAuthentications=publickey",
      ]
    : ["-o", "PreferredAuthentications=password", "-o", "PubkeyAuthentication=no"];
  return [
    ...methods,
    "-F",
    "/dev/null",
    portFlag,
    String(port),
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "GlobalKnownHostsFile=/dev/null",
    "-o",
    "NumberOfPasswordPrompts=1",
    "-o",
    "ConnectTimeout=10",
    "-o",
    "LogLevel=ERROR",
    // sftp's -b turns BatchMode on, which forbids asking for a password;
    // ssh keeps the first value it is given, so this one, given before -b, wins.
    "-o",
    "BatchMode=no",
  ];
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function loginEnv(password: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SSH_ASKPASS: askpass(),
    SSH_ASKPASS_REQUIRE: "force",
    OUTPOST_TEST_SSH_PASSWORD: password,
  };
}

/**
 * OpenSSH's `sftp` in batch mode: the commands one per line (a leading `-`
 * lets the batch go on when that command fails), run from `cwd`, where
 * `get` and `put` find and leave local files.
 */
export async function runSftp(
  login: SshLogin,
  commands: string[],
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<Run> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-sftp-"));
  const cwd = opts.cwd ?? work;
  const batch = path.join(work, "batch");
  fs.writeFileSync(batch, `${commands.join("\n")}\n`);
  try {
    // user@host: sftp splits at the last @, so an e-mail user name passes whole.
    const args = [
      ...clientOptions(login.port, "-P", login.identity),
      "-b",
      batch,
      `${login.user}@${login.host ?? "127.0.0.1"}`,
    ];
    return await run("sftp", args, loginEnv(login.password), cwd, opts.timeoutMs ?? 60_000);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** OpenSSH's `ssh` running one command (which an SFTP-only server must refuse). */
export function runSsh(login: SshLogin, command: string[]): Promise<Run> {
  const args = [
    ...clientOptions(login.port, "-p", login.identity),
    "-T",
    "-l",
    login.user,
    login.host ?? "127.0.0.1",
    ...command,
  ];
  return run("ssh", args, loginEnv(login.password), os.tmpdir(), 30_000);
}

/** The SHA256 fingerprint of a server's Ed25519 host key, read with ssh-keyscan and ssh-keygen. */
export async function hostKeyFingerprint(port: number, host = "127.0.0.1"): Promise<string> {
  const scan = await run(
    "ssh-keyscan",
    ["-p", String(port), "-t", "ed25519", host],
    process.env,
    os.tmpdir(),
    30_000,
  );
  const line = scan.stdout.split("\n").find((l) => l.includes("ssh-ed25519"));
  if (!line) throw new Error(`ssh-keyscan found no ed25519 key on ${host}:${port}: ${scan.stderr}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-keyscan-"));
  try {
    fs.writeFileSync(path.join(dir, "key"), `${line}\n`);
    const print = await run("ssh-keygen", ["-l", "-f", path.join(dir, "key")], process.env, dir, 30_000);
    const match = /SHA256:\S+/.exec(print.stdout);
    if (!match) throw new Error(`ssh-keygen printed no fingerprint: ${print.stdout}${print.stderr}`);
    return match[0];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
