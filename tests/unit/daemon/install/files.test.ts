import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runOperations } from "../../../../server/daemon/install/index.ts";
import type { Operation } from "../../../../server/templates/index.ts";
import { installFailure, scratchEachTest, serverContext, tree } from "./support.ts";

const s = scratchEachTest();

const run = (ops: Operation[], variables = {}) =>
  runOperations(ops, serverContext(s.root, variables), s.env());
const read = (file: string) => fs.readFileSync(path.join(s.root, file), "utf8");

describe("writefile and alterfile", () => {
  it("writes substituted text, then alters it plainly and by regular expression", async () => {
    const result = await run(
      [
        { type: "writefile", target: "server.properties", text: "motd=${motd}\nport=${port}\nlevel=world\n" },
        { type: "alterfile", file: "server.properties", search: "world", replace: "${level}" },
        {
          type: "alterfile",
          file: "server.properties",
          search: "^port=.*$",
          replace: "port=$1 kept literally",
          regex: true,
        },
      ],
      { motd: "Hello", port: 25565, level: "nether" },
    );
    expect(result).toEqual({ ran: 3, skipped: 0, variables: {} });
    expect(read("server.properties")).toBe("motd=Hello\nport=$1 kept literally\nlevel=nether\n");
    expect(s.text()).toContain("[DAEMON] Writing some data to file: server.properties");
  });

  it("fails on a bad pattern naming the step, and keeps the parser's error as its cause for the log", async () => {
    fs.writeFileSync(path.join(s.root, "a.cfg"), "x\n");
    const error = await installFailure(
      run([{ type: "alterfile", file: "a.cfg", search: "(", replace: "", regex: true }]),
    );
    expect(error.message).toMatch(/^alterfile: bad regular expression \(/);
    expect(error.cause).toBeInstanceOf(Error);
  });

  // The audit's pattern: V8's backtracking engine took 9.3 s at 29 characters, doubling with each
  // more (the whole panel waited, for a local node). RE2 answers in time linear in the text.
  it("runs a pattern that backtracks without end elsewhere in linear time", async () => {
    fs.writeFileSync(path.join(s.root, "a.cfg"), `${"a".repeat(5000)}!\nkeep\n`);
    await run([{ type: "alterfile", file: "a.cfg", search: "(a+)+$", replace: "x", regex: true }]);
    expect(read("a.cfg")).toBe(`${"a".repeat(5000)}!\nkeep\n`);
  });

  // Linear in the text times the pattern's program: this short pattern compiles to 2,042
  // instructions and held the node's event loop 23 s over 256 KiB before the work was bounded.
  it("refuses a pattern whose program times the file passes the work bound, and leaves the file", async () => {
    const text = "ab".repeat(128 * 1024);
    fs.writeFileSync(path.join(s.root, "big.cfg"), text);
    const error = await installFailure(
      run([
        { type: "alterfile", file: "big.cfg", search: "(x|[a-b]{1,50}){1,20}$", replace: "", regex: true },
      ]),
    );
    expect(error.message).toMatch(
      /too large a regular expression for big\.cfg: \d+ instructions over 262144/,
    );
    expect(read("big.cfg")).toBe(text);
    // The audit's pattern is small: it still runs over 400 KiB.
    fs.writeFileSync(path.join(s.root, "a.cfg"), `${"a".repeat(400 * 1024)}\n`);
    await run([{ type: "alterfile", file: "a.cfg", search: "(a+)+$", replace: "x", regex: true }]);
    expect(read("a.cfg")).toBe("x\n");
  });

  it("reads Go's ungreedy flag as Go does", async () => {
    fs.writeFileSync(path.join(s.root, "a.cfg"), "<a><b>\n");
    await run([{ type: "alterfile", file: "a.cfg", search: "(?U)<.+>", replace: "[]", regex: true }]);
    expect(read("a.cfg")).toBe("[][]\n");
  });

  it("refuses to run a regular expression over a file larger than 1 MiB, and leaves it as it was", async () => {
    const big = "x".repeat(1024 * 1024 + 1);
    fs.writeFileSync(path.join(s.root, "big.cfg"), big);
    const error = await installFailure(
      run([{ type: "alterfile", file: "big.cfg", search: "x", replace: "y", regex: true }]),
    );
    expect(error.message).toMatch(/big\.cfg is larger than 1024 KiB/);
    expect(read("big.cfg")).toBe(big);
  });

  it("honours Go's leading inline flags in a pattern", async () => {
    fs.writeFileSync(path.join(s.root, "a.cfg"), "Name=One\nname=two\n");
    await run([{ type: "alterfile", file: "a.cfg", search: "(?i)^name=", replace: "n=", regex: true }]);
    expect(read("a.cfg")).toBe("n=One\nn=two\n");
  });

  it("makes parent folders and reads a leading slash as the server folder (the unturned template)", async () => {
    await run(
      [{ type: "writefile", target: "/Servers/${server}/Server/Commands.dat", text: "name ${server}" }],
      {
        server: "main",
      },
    );
    expect(read("Servers/main/Server/Commands.dat")).toBe("name main");
  });

  it("refuses to write out of the server folder, and writes nothing there", async () => {
    for (const target of ["../outside/keep.txt", "a/../../../outside/new.txt"]) {
      const error = await installFailure(run([{ type: "writefile", target, text: "x" }]));
      expect(error.code).toBe("ErrIllegalFileAccess");
      expect(error.message).toMatch(/^writefile: /);
    }
    fs.symlinkSync(s.outside, path.join(s.root, "link"));
    const error = await installFailure(run([{ type: "writefile", target: "link/new.txt", text: "x" }]));
    expect(error.code).toBe("ErrIllegalFileAccess");
    expect(tree(s.outside)).toEqual(["keep.txt"]);
    expect(fs.readFileSync(path.join(s.outside, "keep.txt"), "utf8")).toBe("untouched");
  });

  it("fails alterfile on a missing file", async () => {
    const error = await installFailure(
      run([{ type: "alterfile", file: "nope.txt", search: "a", replace: "b" }]),
    );
    expect(error.code).toBe("ErrFileNotFound");
  });
});

describe("mkdir and move", () => {
  it("makes folders and moves a glob's matches into a folder", async () => {
    await run([
      { type: "mkdir", target: "plugins/disabled" },
      { type: "writefile", target: "paper-1.20.4-100.jar", text: "jar" },
      { type: "writefile", target: "a.jar", text: "a" },
      { type: "writefile", target: "b.jar", text: "b" },
      { type: "move", source: "paper-*.jar", target: "server.jar" },
      { type: "move", source: "?.jar", target: "plugins/disabled" },
    ]);
    expect(read("server.jar")).toBe("jar");
    expect(tree(path.join(s.root, "plugins"))).toEqual(["disabled", "disabled/a.jar", "disabled/b.jar"]);
    expect(fs.existsSync(path.join(s.root, "paper-1.20.4-100.jar"))).toBe(false);
    expect(s.text()).toContain("Moving file from paper-1.20.4-100.jar to server.jar");
  });

  it("moves nothing, and says so, when nothing matches (as the Go panel)", async () => {
    const result = await run([{ type: "move", source: "forge-*.jar", target: "server.jar" }]);
    expect(result.ran).toBe(1);
    expect(s.text()).toContain("Nothing matches forge-*.jar");
  });

  it("refuses several matches onto one file name", async () => {
    await run([
      { type: "writefile", target: "x1.jar", text: "1" },
      { type: "writefile", target: "x2.jar", text: "2" },
    ]);
    const error = await installFailure(run([{ type: "move", source: "x*.jar", target: "one.jar" }]));
    expect(error.message).toContain("matches 2 files");
    expect(read("x1.jar")).toBe("1");
  });

  it("refuses moves out of the folder or from outside it", async () => {
    fs.writeFileSync(path.join(s.root, "mine.txt"), "mine");
    fs.symlinkSync(s.outside, path.join(s.root, "out"));
    expect(
      (await installFailure(run([{ type: "move", source: "mine.txt", target: "../outside/mine.txt" }]))).code,
    ).toBe("ErrIllegalFileAccess");
    expect(
      (await installFailure(run([{ type: "move", source: "mine.txt", target: "out/mine.txt" }]))).code,
    ).toBe("ErrIllegalFileAccess");
    expect((await installFailure(run([{ type: "mkdir", target: "out/made" }]))).code).toBe(
      "ErrIllegalFileAccess",
    );
    // A pattern reaching through a link out of the folder matches nothing there.
    await run([{ type: "move", source: "out/*.txt", target: "stolen" }]);
    expect(tree(s.outside)).toEqual(["keep.txt"]);
    expect(fs.existsSync(path.join(s.root, "stolen"))).toBe(false);
  });
});

describe("archive", () => {
  it("packs files into a tar.gz and a zip that extract back to the same content", async () => {
    await run([
      { type: "writefile", target: "world/level.dat", text: "level" },
      { type: "writefile", target: "world/region/r.0.0.mca", text: "region" },
      { type: "archive", source: ["world"], destination: "backups/world.tar.gz" },
      { type: "archive", source: ["world"], destination: "backups/world.zip" },
      { type: "extract", source: "backups/world.tar.gz", destination: "from-tar" },
      { type: "extract", source: "backups/world.zip", destination: "from-zip" },
    ]);
    for (const folder of ["from-tar", "from-zip"]) {
      expect(read(`${folder}/world/level.dat`)).toBe("level");
      expect(read(`${folder}/world/region/r.0.0.mca`)).toBe("region");
    }
  });

  it("stores a link to outside as a link, never what it points to", async () => {
    fs.mkdirSync(path.join(s.root, "data"));
    fs.symlinkSync(path.join(s.outside, "keep.txt"), path.join(s.root, "data/secret"));
    await run([{ type: "archive", source: ["data"], destination: "data.tar" }]);
    const bytes = fs.readFileSync(path.join(s.root, "data.tar"));
    expect(bytes.includes(Buffer.from("untouched"))).toBe(false);
  });
});
