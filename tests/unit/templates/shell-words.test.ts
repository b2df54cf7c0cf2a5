import { describe, expect, it } from "vitest";
import { splitCommandLine } from "../../../server/templates/index.ts";
import { errorBody } from "./fixtures.ts";

describe("splitCommandLine", () => {
  it.each([
    ["java -Xmx1024M -jar server.jar nogui", ["java", "-Xmx1024M", "-jar", "server.jar", "nogui"]],
    ["  a \t b\n c  ", ["a", "b", "c"]],
    ["", []],
    ["   ", []],
    ['+server.hostname "My Server" +rcon.web 1', ["+server.hostname", "My Server", "+rcon.web", "1"]],
    ["say 'it''s \"quoted\"'", ["say", 'its "quoted"']],
    ['a"b c"d', ["ab cd"]],
    ["-password \"\" -name ''", ["-password", "", "-name", ""]],
    ["a\\ b c\\\\d \\'e", ["a b", "c\\d", "'e"]],
    ['"x \\" \\\\ \\$y \\n"', ['x " \\ $y \\n']],
    ["'no \\escapes $here'", ["no \\escapes $here"]],
    ["one \\\ntwo", ["one", "two"]],
    ["./valheim_server -public 1 > /dev/null &", ["./valheim_server", "-public", "1", ">", "/dev/null", "&"]],
    [
      "@libraries/net/minecraftforge/forge/1.20.1/unix_args.txt",
      ["@libraries/net/minecraftforge/forge/1.20.1/unix_args.txt"],
    ],
  ])("%j", (line, argv) => {
    expect(splitCommandLine(line)).toEqual(argv);
  });

  it.each([
    ['say "unterminated', 'command line: unterminated " quote'],
    ["say 'unterminated", "command line: unterminated ' quote"],
    ["ends with \\", "command line: ends with an unfinished escape (\\)"],
  ])("refuses %j", (line, msg) => {
    expect(errorBody(() => splitCommandLine(line))).toEqual({ error: { code: "ErrGeneric", msg } });
  });
});
