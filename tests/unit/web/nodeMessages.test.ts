import fs from "node:fs";
import path from "node:path";
import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeMessage, nodeMessagePatterns } from "../../../src/screens/servers/console/nodeMessages";

// The node's console lines have codes the client translates: every code must match what the node
// really writes (the English stays on the wire for PufferPanel's client), and foreign text is quoted.

const root = path.resolve(import.meta.dirname, "../../..");
const daemon = ["server/daemon/runtime/instance.ts", "server/daemon/backups/backup-ops.ts"]
  .map((f) => fs.readFileSync(path.join(root, f), "utf8"))
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
    expect(nodeMessage("Starting server")).toEqual({ before: "Starting server", after: "" });
    expect(nodeMessage("Install failed: fatal: unable to access 'x'")).toEqual({
      before: "Install failed: ",
      quoted: "fatal: unable to access 'x'",
      after: "",
    });
    expect(nodeMessage("Server exited with code 3")).toEqual({
      before: "Server exited with code 3",
      after: "",
    });
    expect(nodeMessage("Something the client does not know")).toBeUndefined();
    // A process cannot pass its own line off as the node's by sharing a prefix.
    expect(nodeMessage("Starting server now, says the game")).toBeUndefined();
  });
});
