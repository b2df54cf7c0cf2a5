import fs from "node:fs/promises";
import path from "node:path";
import { importTemplate, isEgg, loadYaml, parseDocumentText, type Template } from "../../templates/index.ts";

export interface RepoTemplate {
  name: string;
  template: Template;
  readme?: string;
}

/** How deep egg repositories nest their eggs (game_eggs/minecraft/java/paper/egg-paper.json). */
const maxDepth = 6;

/**
 * Reads a checked-out template repository the way the compatible panel does:
 * every top-level folder (dot-folders skipped) holds `<name>.json` templates
 * (`data.json` is test input, not a template) and maybe a README.md.
 * Old-format templates are converted on import; files that do not parse are
 * reported, not fatal. Egg repositories (Pterodactyl / Pelican) nest their
 * eggs deeper and also write YAML: below the top folders, and in YAML, only
 * eggs are read. An egg's name is its file name, made unique with its folders.
 */
export async function readRepo(dir: string): Promise<{ templates: RepoTemplate[]; problems: string[] }> {
  const templates: RepoTemplate[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  await loadYaml();
  const readFolder = async (relative: string, depth: number): Promise<void> => {
    const folderPath = path.join(dir, relative);
    const entries = await fs.readdir(folderPath, { withFileTypes: true });
    const readme = entries.some((f) => f.isFile() && f.name === "README.md")
      ? await fs.readFile(path.join(folderPath, "README.md"), "utf8")
      : undefined;
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const file = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (depth < maxDepth) await readFolder(file, depth + 1);
        continue;
      }
      const extension = /\.(json|ya?ml)$/.exec(entry.name);
      if (!entry.isFile() || !extension || entry.name === "data.json") continue;
      const nested = depth > 1 || extension[1] !== "json";
      try {
        const read = parseDocumentText(await fs.readFile(path.join(folderPath, entry.name), "utf8"));
        if (!read.ok) {
          // Another file of a repository may be any YAML, but one too big to read is named wherever it is.
          if (!nested || read.tooBig) problems.push(`${file}: ${read.problem}`);
          continue;
        }
        if (nested && !isEgg(read.document)) continue;
        const imported = importTemplate(read.document);
        if (!imported.ok) {
          problems.push(`${file}: ${imported.problems[0]?.path} ${imported.problems[0]?.problem}`);
          continue;
        }
        let name = entry.name.slice(0, -extension[0].length);
        if (names.has(name)) name = file.slice(0, -extension[0].length).replace(/[^A-Za-z0-9._-]+/g, "-");
        names.add(name);
        templates.push({ name, template: imported.template, readme });
      } catch (err) {
        problems.push(`${file}: ${(err as Error).message}`);
      }
    }
  };
  const folders = (await fs.readdir(dir, { withFileTypes: true })).filter(
    (e) => e.isDirectory() && !e.name.startsWith("."),
  );
  for (const folder of folders) await readFolder(folder.name, 1);
  templates.sort((a, b) => a.name.localeCompare(b.name));
  return { templates, problems };
}
