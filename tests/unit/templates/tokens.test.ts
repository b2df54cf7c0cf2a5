import { describe, expect, it } from "vitest";
import { replaceTokens, tokenValues, unknownTokens } from "../../../server/templates/index.ts";
import { serverContext } from "./fixtures.ts";

describe("replaceTokens", () => {
  const values = { port: 25565, eula: true, name: "My Server", "level-name": "world", empty: "" };

  it("replaces known tokens with Go-style text", () => {
    expect(replaceTokens("-p ${port} eula=${eula} '${name}'", values)).toBe("-p 25565 eula=true 'My Server'");
    expect(replaceTokens("level=${level-name}${empty}", values)).toBe("level=world");
  });

  it("leaves unknown tokens and shell-style $VAR alone", () => {
    expect(replaceTokens("${missing} ${} $port ${ port }", values)).toBe("${missing} ${} $port ${ port }");
    expect(replaceTokens("./linux64:$LD_LIBRARY_PATH", values)).toBe("./linux64:$LD_LIBRARY_PATH");
  });

  it("does not expand a value again", () => {
    expect(replaceTokens("${a}", { a: "${b}", b: "no" })).toBe("${b}");
  });

  it("does not read inherited names", () => {
    expect(replaceTokens("${toString}${constructor}", {})).toBe("${toString}${constructor}");
  });

  it("lists the tokens it cannot replace", () => {
    expect(unknownTokens("${port} ${resolvedForgeVersion} ${x}", values)).toEqual([
      "resolvedForgeVersion",
      "x",
    ]);
  });
});

describe("tokenValues", () => {
  it("holds the variables plus serverId, rootDir, core:os and core:arch", () => {
    const values = tokenValues(serverContext({ variables: { port: 1, serverId: "spoofed" }, os: "windows" }));
    expect(values).toEqual({
      port: 1,
      serverId: "0a1b2c3d",
      rootDir: "/srv/outpost/0a1b2c3d",
      "core:os": "windows",
      "core:arch": "amd64",
    });
    expect(replaceTokens("${rootDir}/openttd.cfg", values)).toBe("/srv/outpost/0a1b2c3d/openttd.cfg");
  });

  it("adds success and exitCode after the process exited (run.post)", () => {
    const values = tokenValues(serverContext({ exit: { success: false, exitCode: 137 } }));
    expect(replaceTokens("${success} ${exitCode}", values)).toBe("false 137");
  });
});
