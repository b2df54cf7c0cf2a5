import fs from "node:fs";
import path from "node:path";
import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeMessage, nodeMessagePatterns } from "../../../src/screens/servers/console/nodeMessages";

// The node's console lines have codes the client translates: every code must match what the node
// really writes (the English stays on the wire for PufferPanel's client), and foreign text is quoted.

const root = path.resolve(import.meta.dirname, "../../..");
const daemonDir = path.join(root, "server/daemon");
const daemon = fs
  .readdirSync(daemonDir, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .map((f) => fs.readFileSync(path.join(daemonDir, f), "utf8"))
  .join("\n");

/** A line the node writes for each code, and the literal parts of it found in the node's source. */
const written: Record<string, { line: string; literal: string[] }> = {
  starting: { line: "Starting server", literal: ['"Starting server"'] },
  stopRequested: { line: "Server was told to stop", literal: ['"Server was told to stop"'] },
  stopTimeout: {
    line: "Server did not stop in time, killing it",
    literal: ['"Server did not stop in time, killing it"'],
  },
  installing: { line: "Installing server", literal: ['"Installing server"'] },
  installed: { line: "Server installed", literal: ['"Server installed"'] },
  installFailed: { line: "Install failed: git said no", literal: ["`Install failed: ${"] },
  exited: { line: "Server exited with code 0", literal: ["`Server exited with code ${exitCode}"] },
  crashed: {
    line: "Server exited with code 1 (crash)",
    literal: ["`Server exited with code ${exitCode}", '" (crash)"'],
  },
  signalled: { line: "Server was ended by SIGKILL", literal: ["`Server was ended by ${result.signal}`"] },
  backingUp: { line: "Backing up server", literal: ['"Backing up server"'] },
  backupDone: { line: "Backup complete", literal: ['"Backup complete"'] },
  backupFailed: { line: "Backup failed: disk full", literal: ["`Backup failed: ${reason}`"] },
  restoring: { line: "Restoring backup", literal: ['"Restoring backup"'] },
  restored: { line: "Backup restored", literal: ['"Backup restored"'] },
  restoreFailed: { line: "Restore failed: no such backup", literal: ["`Restore failed: ${"] },
  memoryKilledAt: {
    line: "Server was killed: it went over its memory limit (512 MiB) (crash)",
    literal: [
      "`Server was killed: it went over its memory limit${",
      "` (${plan.memoryLimitMiB} MiB)`",
      "} (crash)`",
    ],
  },
  memoryKilled: {
    line: "Server was killed: it went over its memory limit (crash)",
    literal: ["`Server was killed: it went over its memory limit${", "} (crash)`"],
  },
  containerMemoryKilled: {
    line: "The server went over its memory limit and was killed",
    literal: ["[DAEMON] The server went over its memory limit and was killed\\n"],
  },
  limitsFailed: {
    line: "Could not apply the server's limits: EACCES",
    literal: ["`Could not apply the server's limits: ${err.message}`"],
  },
  cgroupRemoveFailed: {
    line: "Could not remove the server's cgroup: EBUSY",
    literal: ["`Could not remove the server's cgroup: ${err.message}`"],
  },
  postFailed: { line: "Post steps failed: exit 1", literal: ["`Post steps failed: ${errorText(err)}`"] },
  crashLimit: {
    line: "Server crashed 4 times in a row; not restarting it",
    literal: ["`Server crashed ${this.crashes + 1} times in a row; not restarting it`"],
  },
  restartAfterExit: {
    line: "Restarting after a graceful exit",
    literal: ['"Restarting after a graceful exit"'],
  },
  restartAfterCrash: {
    line: "Restarting after a crash (2 of 3)",
    literal: ["`Restarting after a crash (${this.crashes} of ${this.options.crashLimit})`"],
  },
  restartFailed: { line: "Restart failed: busy", literal: ["`Restart failed: ${errorText(err)}`"] },
  couldNotStart: {
    line: "could not start ./srv: spawn ENOENT",
    literal: ["[DAEMON] could not start ${command}: ${err.message}\\n"],
  },
  containerLost: {
    line: "Lost the container: socket hang up",
    literal: ["[DAEMON] Lost the container: ${(err as Error).message}\\n"],
  },
  containerRemoveFailed: {
    line: "Could not remove the container: conflict",
    literal: ["[DAEMON] Could not remove the container: ${err.message}\\n"],
  },
  taskPatternPaused: {
    line: 'Task "Greet": its console pattern took too long and is paused for a minute',
    literal: [
      '`Task "${this.file.tasks[id]?.name}": its console pattern took too long and is paused for a minute`',
    ],
  },
  backupLeftOut: {
    line: "Backup left out logs/x.sock: not a regular file",
    literal: ["`Backup left out ${place}: ${why}`"],
  },
  executing: { line: "Executing: sh -c 'echo hi'", literal: ["`Executing: ${line}`"] },
  downloadingUrl: { line: "Downloading https://example.com/a.zip", literal: ["`Downloading ${url}`"] },
  downloadingFile: {
    line: "Downloading file https://example.com/a.zip",
    literal: ["`Downloading file ${url}`"],
  },
  downloadProgressOf: {
    line: "Downloading https://example.com/a.zip: 1.5 MiB of 10.0 MiB (15%)",
    literal: ["`Downloading ${label}: ${size(received)} of ${size(total)} (${"],
  },
  downloadProgress: {
    line: "Downloading server.jar: 512.0 KiB",
    literal: ["`Downloading ${label}: ${size(received)}`"],
  },
  downloaded: {
    line: "Downloaded https://example.com/a.zip to a.zip",
    literal: ["`Downloaded ${url} to ${name}`"],
  },
  cachedCopy: {
    line: "Using the cached copy of https://example.com/a.zip",
    literal: ["`Using the cached copy of ${url}`"],
  },
  downloadExtract: {
    line: "Downloading and extracting https://example.com/a.zip",
    literal: ["`Downloading and extracting ${url}`"],
  },
  writingFile: {
    line: "Writing some data to file: eula.txt",
    literal: ["`Writing some data to file: ${op.target}`"],
  },
  changingFile: {
    line: "Changing some data in file: server.properties",
    literal: ["`Changing some data in file: ${op.file}`"],
  },
  creatingFolder: { line: "Creating directory: mods", literal: ["`Creating directory: ${op.target}`"] },
  extracting: { line: "Extracting a.zip to game", literal: ["`Extracting ${op.source} to ${op.destination"] },
  moving: { line: "Moving file from a to b", literal: ["`Moving file from ${source} to ${destination}`"] },
  skipping: {
    line: 'Skipping command: its condition "env.type == docker" is false',
    literal: ["`Skipping ${op.type}: its condition ${JSON.stringify(op.if)} is false`"],
  },
  pulling: { line: "Pulling image alpine:3", literal: ["`Pulling image ${op.imageName}`"] },
  sleeping: { line: "Sleeping for 5s", literal: ["`Sleeping for ${op.duration}`"] },
  sendingToConsole: {
    line: "Sending to the console: say hi",
    literal: ["`Sending to the console: ${op.message}`"],
  },
};

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

describe("the node's console lines by code", () => {
  it("has a line the node writes for every code, and every code matches only its own line", () => {
    expect(Object.keys(written).sort()).toEqual(Object.keys(nodeMessagePatterns).sort());
    for (const [code, { line, literal }] of Object.entries(written)) {
      for (const part of literal) expect(daemon, `${code}: ${part}`).toContain(part);
      const matching = Object.entries(nodeMessagePatterns).filter(([, re]) => re.test(line));
      expect(matching.map(([c]) => c)).toEqual([code]);
    }
  });

  it("gives the words of this page, the foreign part apart to be quoted; unknown lines are left alone", () => {
    expect(nodeMessage("Starting server")).toEqual(["Starting server"]);
    expect(nodeMessage("Install failed: fatal: unable to access 'x'")).toEqual([
      "Install failed: ",
      { quoted: "fatal: unable to access 'x'" },
    ]);
    expect(nodeMessage("Server exited with code 3")).toEqual(["Server exited with code 3"]);
    expect(nodeMessage("Restarting after a crash (2 of 3)")).toEqual(["Restarting after a crash (2 of 3)"]);
    expect(nodeMessage("Moving file from a b to c")).toEqual([
      "Moving ",
      { quoted: "a b" },
      " to ",
      { quoted: "c" },
    ]);
    expect(nodeMessage('Task "Greet": its console pattern took too long and is paused for a minute')).toEqual(
      ["Task ", { quoted: "Greet" }, ": its console pattern took too long and is paused for a minute"],
    );
    expect(nodeMessage("Something the client does not know")).toBeUndefined();
    // A process cannot pass its own line off as the node's by sharing a prefix.
    expect(nodeMessage("Starting server now, says the game")).toBeUndefined();
  });
});
