import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runOperations } from "../../../../server/daemon/install/index.ts";
import type { Operation } from "../../../../server/templates/index.ts";
import { waitUntil } from "../../../support/poll.ts";
import { installFailure, scratchEachTest, serverContext } from "./support.ts";

const s = scratchEachTest();

const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};

describe("command", () => {
  it("runs each line in the server folder with the server's environment, output into the console", async () => {
    await runOperations(
      [
        {
          type: "command",
          commands: [
            "sh -c 'echo out-$GREETING; echo err-line >&2; pwd'",
            'printf "%s|" ${name} "two words"',
          ],
        },
      ],
      serverContext(s.root, { name: "Alpha" }),
      s.env({ env: { PATH: process.env.PATH ?? "", GREETING: "hello" } }),
    );
    const text = s.text();
    expect(text).toContain("[DAEMON] Executing: sh -c 'echo out-$GREETING; echo err-line >&2; pwd'");
    expect(text).toContain("out-hello");
    expect(text).toContain("err-line");
    expect(text).toContain(fs.realpathSync(s.root));
    expect(text).toContain("Alpha|two words|");
  });

  it("gives a user's value to the program as one argument, and refuses one that would be an option", async () => {
    const name = `a b "c" 'd' ; $(id) > f`;
    await runOperations(
      [{ type: "command", commands: ['printf "[%s]" ${name} x${name}'] }],
      serverContext(s.root, { name }, new Set(["name"])),
      s.env(),
    );
    expect(s.text()).toContain(`[${name}][x${name}]`);
    expect(fs.existsSync(path.join(s.root, "f"))).toBe(false);
    const refused = await installFailure(
      runOperations(
        [{ type: "command", commands: ["touch ${name}"] }],
        serverContext(s.root, { name: "--reference=/etc/passwd" }, new Set(["name"])),
        s.env(),
      ),
    );
    expect(refused.code).toBe("ErrVariableInvalid");
    expect(refused.metadata).toMatchObject({ field: "name" });
  });

  it("passes no shell: && and > are plain arguments", async () => {
    await runOperations(
      [{ type: "command", commands: ["echo a && echo b > file.txt"] }],
      serverContext(s.root),
      s.env(),
    );
    expect(s.text()).toContain("a && echo b > file.txt");
    expect(fs.existsSync(path.join(s.root, "file.txt"))).toBe(false);
  });

  it("fails the list on a non-zero exit and runs nothing after it", async () => {
    const error = await installFailure(
      runOperations(
        [
          { type: "command", commands: ["sh -c 'exit 3'", "touch never"] },
          { type: "writefile", target: "after.txt", text: "x" },
        ],
        serverContext(s.root),
        s.env(),
      ),
    );
    expect(error.message).toBe(`command: "sh -c 'exit 3'" exited with code 3`);
    expect(error.metadata).toMatchObject({ operation: "command" });
    expect(fs.existsSync(path.join(s.root, "never"))).toBe(false);
    expect(fs.existsSync(path.join(s.root, "after.txt"))).toBe(false);
  });

  it("fails clearly on a program that does not exist", async () => {
    const error = await installFailure(
      runOperations(
        [{ type: "command", commands: ["no-such-program-xyz --help"] }],
        serverContext(s.root),
        s.env(),
      ),
    );
    expect(error.message).toContain("could not be started");
  });

  it("closes the input, so a question reads end-of-file instead of hanging", async () => {
    await runOperations(
      [{ type: "command", commands: ["sh -c 'read answer || echo no-answer'"] }],
      serverContext(s.root),
      s.env(),
    );
    expect(s.text()).toContain("no-answer");
  });

  it("puts the node's binaries folder first on PATH", async () => {
    fs.mkdirSync(s.binaries, { recursive: true });
    fs.writeFileSync(path.join(s.binaries, "java77"), '#!/bin/sh\necho fake java 77 "$@"\n', { mode: 0o755 });
    await runOperations(
      [{ type: "command", commands: ["java77 -version"] }],
      serverContext(s.root),
      s.env({ binariesDir: s.binaries }),
    );
    expect(s.text()).toContain("fake java 77 -version");
  });

  it("kills the command's whole process tree when the steps are cancelled", async () => {
    const controller = new AbortController();
    const pidFile = path.join(s.root, "child.pid");
    const running = runOperations(
      [{ type: "command", commands: [`sh -c 'sleep 60 & echo $! > ${pidFile}; wait'`] }],
      serverContext(s.root),
      s.env({ signal: controller.signal }),
    );
    await waitUntil(
      async () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim() !== "",
      10_000,
      20,
    );
    const child = Number(fs.readFileSync(pidFile, "utf8"));
    expect(alive(child)).toBe(true);
    controller.abort();
    const error = await installFailure(running);
    expect(error.message).toBe("the steps were cancelled");
    // Killed with its group: gone (a zombie counts as gone) soon after.
    await waitUntil(async () => !alive(child), 5000, 10);
  });
});

describe("the list", () => {
  it("skips a step whose if is false, with a notice, and honours file_exists through the sandbox", async () => {
    fs.writeFileSync(path.join(s.root, "server.properties"), "existing");
    fs.symlinkSync(path.join(s.outside, "keep.txt"), path.join(s.root, "outside-link"));
    const result = await runOperations(
      [
        { type: "writefile", if: "modlauncher == 'forge'", target: "forge.txt", text: "x" },
        { type: "writefile", if: "modlauncher == 'paper' && env == 'host'", target: "paper.txt", text: "x" },
        {
          type: "writefile",
          if: '!file_exists("server.properties")',
          target: "server.properties",
          text: "new",
        },
        { type: "writefile", if: "file_exists('outside-link')", target: "leaked.txt", text: "x" },
        { type: "writefile", if: "success", target: "success.txt", text: "${success}" },
      ],
      serverContext(s.root, { modlauncher: "paper" }),
      s.env(),
    );
    expect(result).toMatchObject({ ran: 2, skipped: 3 });
    expect(fs.readdirSync(s.root).sort()).toEqual([
      "outside-link",
      "paper.txt",
      "server.properties",
      "success.txt",
    ]);
    expect(fs.readFileSync(path.join(s.root, "server.properties"), "utf8")).toBe("existing");
    expect(s.text()).toContain(
      `[DAEMON] Skipping writefile: its condition "modlauncher == 'forge'" is false`,
    );
  });

  it("hands a step's outputVariable to the later steps and back to the caller", async () => {
    for (const version of ["1.20.1-47.1.0", "1.20.1-47.2.0", "1.19.2-43.3.0"]) {
      const folder = path.join(s.root, "libraries/net/minecraftforge/forge", version);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, "unix_args.txt"), "-cp x");
    }
    fs.mkdirSync(path.join(s.root, "libraries/net/minecraftforge/forge/1.21.0-51.0.0"));
    const result = await runOperations(
      [
        { type: "resolveforgeversion", minecraftVersion: "1.20.1", outputVariable: "resolvedForgeVersion" },
        { type: "writefile", target: "run.txt", text: "forge ${resolvedForgeVersion}" },
        { type: "resolveforgeversion", version: "pinned", outputVariable: "other" },
      ],
      serverContext(s.root, { resolvedForgeVersion: "" }),
      s.env(),
    );
    expect(result.variables).toEqual({ resolvedForgeVersion: "1.20.1-47.2.0", other: "pinned" });
    expect(fs.readFileSync(path.join(s.root, "run.txt"), "utf8")).toBe("forge 1.20.1-47.2.0");
  });

  it("fails resolveforgeversion when Forge is not installed", async () => {
    const error = await installFailure(
      runOperations([{ type: "resolveforgeversion", outputVariable: "v" }], serverContext(s.root), s.env()),
    );
    expect(error.message).toContain("Forge is not installed");
  });

  it("refuses an unknown operation type with ErrMissingFactory", async () => {
    const error = await installFailure(
      runOperations(
        [{ type: "teleport", target: "x" } as unknown as Operation],
        serverContext(s.root),
        s.env(),
      ),
    );
    expect(error.code).toBe("ErrMissingFactory");
    expect(error.metadata).toEqual({ operatorName: "teleport" });
  });

  it("sleeps for a Go duration, and a cancel ends the sleep", async () => {
    const started = Date.now();
    await runOperations([{ type: "sleep", duration: "150ms" }], serverContext(s.root), s.env());
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(s.text()).toContain("[DAEMON] Sleeping for 150ms");

    const controller = new AbortController();
    const sleeping = runOperations(
      [{ type: "sleep", duration: "1h" }],
      serverContext(s.root),
      s.env({ signal: controller.signal }),
    );
    // Cancelled once the sleep has begun, so it is the sleep that the cancel ends.
    await waitUntil(async () => s.text().includes("Sleeping for 1h"), 5000, 10);
    controller.abort();
    expect((await installFailure(sleeping)).message).toBe("the steps were cancelled");
  });

  it("sends console lines to the running server, and fails when there is none", async () => {
    const sent: string[] = [];
    await runOperations(
      [{ type: "console", message: "say ${greeting}" }],
      serverContext(s.root, { greeting: "hi" }),
      s.env({ sendConsole: (line) => sent.push(line) }),
    );
    expect(sent).toEqual(["say hi"]);
    const error = await installFailure(
      runOperations([{ type: "console", message: "say hi" }], serverContext(s.root), s.env()),
    );
    expect(error.message).toContain("console: the server is not running");
  });

  it("fails dockerpull clearly on a node without Docker", async () => {
    const error = await installFailure(
      runOperations([{ type: "dockerpull", imageName: "alpine:3" }], serverContext(s.root), s.env()),
    );
    expect(error.message).toBe("dockerpull: cannot pull alpine:3: this node has no Docker engine");
  });
});
