import { describe, expect, it } from "vitest";
import { segmentMatcher } from "../../../../server/daemon/sandbox/glob.ts";

describe("glob segments (Go's filepath.Match)", () => {
  const cases: [string, string, boolean][] = [
    ["paper-*.jar", "paper-1.20.jar", true],
    ["paper-*.jar", "paper-1.20.jar.bak", false],
    ["*", "", true],
    ["*", "anything", true],
    ["?", "a", true],
    ["?", "", false],
    ["?", "ab", false],
    ["a*b*c", "aXXbYYc", true],
    ["a*b*c", "aXXbYY", false],
    ["a*b", "ab", true],
    ["*.tar.gz", "backup.tar.gz", true],
    ["*x", "xxxx", true],
    ["paper-1.2[1-9].jar", "paper-1.21.jar", true],
    ["paper-1.2[1-9].jar", "paper-1.20.jar", false],
    ["[^a-c]*", "dog", true],
    ["[^a-c]*", "cat", false],
    ["[abc", "[abc", true],
    ["\\*", "*", true],
    ["\\*", "x", false],
    ["ü*", "über", true],
    ["🙂?", "🙂x", true],
  ];
  for (const [pattern, name, expected] of cases) {
    it(`${JSON.stringify(pattern)} ${expected ? "matches" : "does not match"} ${JSON.stringify(name)}`, () => {
      expect(segmentMatcher(pattern).test(name)).toBe(expected);
    });
  }

  // The audit's move source: as a RegExp (`[^/]*a[^/]*a…b`) this backtracks through a power of the
  // name's length (2.2 s for one folder); without backtracking it is pattern × name steps. A
  // backtracking matcher would not finish this within the test's timeout.
  it("answers a star-heavy pattern over long names without backtracking", () => {
    const pattern = `${"*a".repeat(20)}*b`;
    const name = "a".repeat(5000);
    const matcher = segmentMatcher(pattern);
    for (let i = 0; i < 20; i++) expect(matcher.test(name)).toBe(false);
    expect(matcher.test(`${name}b`)).toBe(true);
  });
});
