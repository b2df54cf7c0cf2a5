import fs from "node:fs";
import path from "node:path";

/**
 * The community template corpora vendored in tests/fixtures/ (each folder's
 * SOURCE.txt says where from, LICENSE is their licence).
 * Missing folders fail loudly: a corpus test that silently ran on nothing
 * would prove nothing.
 */
const repoRoot = path.resolve(import.meta.dirname, "../../..");
export const v3Folder = path.resolve(repoRoot, "tests/fixtures/pufferpanel-templates");
export const v26Folder = path.resolve(repoRoot, "tests/fixtures/pufferpanel-templates-v2.6");

export interface CorpusFile {
  /** Template name: the file name without .json (how the Go panel names it). */
  name: string;
  /** Path relative to the corpus folder, for messages. */
  file: string;
  document: unknown;
}

/** A `data.json` tester entry: variable values to install and run a template with. */
export interface TesterCase {
  name: string;
  variables?: Record<string, unknown>;
  environment: { type: string };
}

function requireFolder(folder: string): void {
  if (!fs.existsSync(folder)) {
    throw new Error(`template corpus not found at ${folder}: it is vendored in tests/fixtures/`);
  }
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

function topFolders(folder: string): string[] {
  requireFolder(folder);
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
}

/** Every template the Go panel would list: each *.json in each top-level folder except data.json. */
export function loadTemplates(folder: string): CorpusFile[] {
  return topFolders(folder).flatMap((dir) =>
    fs
      .readdirSync(path.join(folder, dir))
      .filter((file) => file.endsWith(".json") && file !== "data.json")
      .sort()
      .map((file) => ({
        name: file.slice(0, -".json".length),
        file: `${dir}/${file}`,
        document: readJson(path.join(folder, dir, file)),
      })),
  );
}

/** The tester entries of every data.json, with the folder they belong to. */
export function loadTesterCases(folder: string): { dir: string; cases: TesterCase[] }[] {
  return topFolders(folder)
    .filter((dir) => fs.existsSync(path.join(folder, dir, "data.json")))
    .map((dir) => ({ dir, cases: readJson(path.join(folder, dir, "data.json")) as TesterCase[] }));
}

export function loadSchema(): object {
  const file = path.join(v3Folder, "spec.json");
  requireFolder(file);
  return readJson(file) as object;
}
