import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../..");
/** A source file longer than this holds more than one idea: split it by idea. */
const maxLines = 450;
const folders = ["server", "src", "sw"];

function lineCount(file: string): number {
  const text = fs.readFileSync(file, "utf8");
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Every .ts, .tsx and .css file below the folder, as `path (lines)` for those over the limit. */
function overLimit(folder: string): string[] {
  const over: string[] = [];
  for (const entry of fs.readdirSync(path.join(repo, folder), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(tsx?|css)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const lines = lineCount(file);
    if (lines > maxLines) over.push(`${path.relative(repo, file)} (${lines} lines)`);
  }
  return over.sort();
}

describe(`source files of at most ${maxLines} lines`, () => {
  it("counts lines as an editor does: a last line without its newline counts too", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-lines-"));
    try {
      const write = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return lineCount(path.join(dir, name));
      };
      expect([write("a", ""), write("b", "x\n"), write("c", "x\ny"), write("d", "x\n\ny\n")]).toEqual([
        0, 1, 2, 3,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const folder of folders) {
    it(`has none longer in ${folder}/`, () => {
      expect(overLimit(folder)).toEqual([]);
    });
  }
});
