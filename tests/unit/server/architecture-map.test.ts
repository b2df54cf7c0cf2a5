import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const map = fs.readFileSync(path.join(repoRoot, "ARCHITECTURE.md"), "utf8");

/** Every folder below `root`, as its path relative to `root` ("daemon/install/steps"). */
function foldersOf(root: string): string[] {
  return fs
    .readdirSync(path.join(repoRoot, root), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(path.join(repoRoot, root), path.join(entry.parentPath, entry.name)))
    .map((folder) => folder.split(path.sep).join("/"))
    .sort();
}

/** Named as a word of its own: "api/" counts, the tail of "contract/api/" does not. */
const named = (folder: string) =>
  new RegExp(`(^|[\\s\`(])${folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/`, "m").test(map);

// ARCHITECTURE.md is the map of the repository: a folder it does not name is a room nobody can find.
describe("ARCHITECTURE.md", () => {
  for (const root of ["server", "src"]) {
    it(`names every folder of ${root}/`, () => {
      expect(foldersOf(root).filter((folder) => !named(folder))).toEqual([]);
    });
  }

  it("names sw/ and the top-level folders", () => {
    expect(["server", "src", "sw", "tests", "bench", "scripts", "locales"].filter((f) => !named(f))).toEqual(
      [],
    );
  });

  it("is linked from the README", () => {
    expect(fs.readFileSync(path.join(repoRoot, "README.md"), "utf8")).toContain("ARCHITECTURE.md");
  });
});
