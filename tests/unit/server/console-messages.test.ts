import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  decodeNodeLine,
  type NodeArgKind,
  type NodeMessageCode,
  nodeLine,
  nodeMessages,
  nodeMessageText,
  taskLine,
} from "../../../server/contract/node/console-messages";

// The node's own console lines: one table (server/contract/node/console-messages.ts) that the node
// writes by and the client reads back by. Every line goes through it; each reads back to its code.

const serverDir = path.resolve(import.meta.dirname, "../../../server");
const table = path.join(serverDir, "contract/node/console-messages.ts");

/** A plain value of each kind; text has spaces, a token none. */
const sample: Record<NodeArgKind, string | number> = {
  text: "some folder/a file.txt",
  token: "https://example.com/a.zip",
  word: "SIGKILL",
  integer: 3,
  size: 1572864,
};
const codes = Object.keys(nodeMessages) as NodeMessageCode[];
const argsOf = (code: NodeMessageCode) =>
  ((nodeMessages[code] as { args?: Record<string, NodeArgKind> }).args ?? {}) as Record<string, NodeArgKind>;
const text = (code: NodeMessageCode, args: Record<string, string | number>) =>
  (nodeMessageText as (c: NodeMessageCode, a: object) => string)(code, args);

describe("the node's console lines", () => {
  it("are all written through the table: no [DAEMON] or [TASK] literal anywhere else below server/", () => {
    const offenders: string[] = [];
    for (const entry of fs.readdirSync(serverDir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file === table) continue;
      const source = fs.readFileSync(file, "utf8");
      source.split("\n").forEach((line, i) => {
        if (/\[(DAEMON|TASK)\]/.test(line) && !/^\s*(\/\/|\/?\*)/.test(line))
          offenders.push(`${path.relative(serverDir, file)}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it("read back to their own code and arguments, every code", () => {
    for (const code of codes) {
      const args = Object.fromEntries(
        Object.entries(argsOf(code)).map(([name, kind]) => [name, sample[kind]]),
      );
      const written = text(code, args);
      expect(written, code).not.toMatch(/[{}]/);
      expect(decodeNodeLine(written), `${code}: ${written}`).toEqual({ code, args });
    }
  });

  it("keep the foreign part whole, whatever it holds, and stay one line", () => {
    expect(decodeNodeLine("Install failed: fatal: unable to access 'x': 403")).toEqual({
      code: "installFailed",
      args: { reason: "fatal: unable to access 'x': 403" },
    });
    expect(decodeNodeLine("could not start ./srv: spawn ./srv ENOENT")).toEqual({
      code: "couldNotStart",
      args: { command: "./srv", reason: "spawn ./srv ENOENT" },
    });
    expect(nodeLine("installFailed", { reason: "line one\nline two" })).toBe(
      "[DAEMON] Install failed: line one line two\n",
    );
  });

  it("write English plurals and sizes as before", () => {
    expect(nodeMessageText("extracted", { count: 1, archive: "a.zip" })).toBe("Extracted 1 entry from a.zip");
    expect(nodeMessageText("extracted", { count: 2, archive: "a.zip" })).toBe(
      "Extracted 2 entries from a.zip",
    );
    expect(
      nodeMessageText("downloadProgressOf", { what: "a", done: 1572864, total: 10485760, percent: 15 }),
    ).toBe("Downloading a: 1.5 MiB of 10.0 MiB (15%)");
    expect(nodeLine("starting")).toBe("[DAEMON] Starting server\n");
  });

  it("write a task run's lines with [TASK] as before, its failure read back whole", () => {
    expect(taskLine("taskOperation", { number: 1, type: "command" })).toBe("[TASK] operation 1: command\n");
    expect(taskLine("taskBackupRemoved", { file: "a.tar.gz", keep: 2 })).toBe(
      "[TASK] backup a.tar.gz removed (keeping 2)\n",
    );
    expect(taskLine("sendingToConsole", { text: "hi" })).toBe("[TASK] Sending to the console: hi\n");
    expect(decodeNodeLine("operation 2 (command): exit status 1: sh: 1: nope: not found")).toEqual({
      code: "taskOperationFailed",
      args: { number: 2, type: "command", reason: "exit status 1: sh: 1: nope: not found" },
    });
    expect(decodeNodeLine("operation 1 (sleep): took longer than 1 s")).toEqual({
      code: "taskOperationTimedOut",
      args: { number: 1, type: "sleep", seconds: 1 },
    });
  });

  it("leave a line of no code, or a process's line that only starts like one, unread", () => {
    expect(decodeNodeLine("Something the node never writes")).toBeUndefined();
    expect(decodeNodeLine("Starting server now, says the game")).toBeUndefined();
    expect(decodeNodeLine("Server exited with code x")).toBeUndefined();
  });
});
