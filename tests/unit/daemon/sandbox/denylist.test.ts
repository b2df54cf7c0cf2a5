import { describe, expect, it } from "vitest";
import { denylistMatcher } from "../../../../server/daemon/sandbox/index.ts";

describe("an egg's file_denylist", () => {
  it("matches names at any depth, anchored paths, folders above, and allows again with !", () => {
    const denied = denylistMatcher(["*.jar", "/config/secret.yml", "logs/", "!allowed.jar", "# comment"]);
    expect(denied("server.jar")).toBe(true);
    expect(denied("plugins/x.jar")).toBe(true);
    expect(denied("allowed.jar")).toBe(false);
    expect(denied("jar.txt")).toBe(false);
    expect(denied("config/secret.yml")).toBe(true);
    expect(denied("other/config/secret.yml")).toBe(false);
    expect(denied("logs/latest.log")).toBe(true);
    expect(denied("mylogs/latest.log")).toBe(false);
    expect(denied("")).toBe(false);
  });
});
