import fs from "node:fs/promises";
import path from "node:path";
import { importTemplate, type Template } from "../../templates/index.ts";

export interface RepoTemplate {
  name: string;
  template: Template;
  readme?: string;
}

/**
 * Reads a checked-out template repository the way the compatible panel does:
 * every top-level folder (dot-folders skipped) holds `<name>.json` templates
 * (`data.json` is test input, not a template) and maybe a README.md.
 * Old-format templates are converted on import; files that do not parse are
 * reported, not fatal.
 */
export async function readRepo(dir: string): Promise<{ templates: RepoTemplate[]; problems: string[] }> {
  const templates: RepoTemplate[] = [];
  const problems: string[] = [];
  const folders = (await fs.readdir(dir, { withFileTypes: true })).filter(
    (e) => e.isDirectory() && !e.name.startsWith("."),
  );
  for (const folder of folders) {
    const folderPath = path.join(dir, folder.name);
    const files = await fs.readdir(folderPath, { withFileTypes: true });
    const readme = files.some((f) => f.isFile() && f.name === "README.md")
      ? await fs.readFile(path.join(folderPath, "README.md"), "utf8")
      : undefined;
    for (const file of files) {
      if (!file.isFile() || !file.name.endsWith(".json") || file.name === "data.json") continue;
      const name = file.name.slice(0, -5);
      try {
        const imported = importTemplate(
          JSON.parse(await fs.readFile(path.join(folderPath, file.name), "utf8")),
        );
        if (imported.ok) templates.push({ name, template: imported.template, readme });
        else
          problems.push(
            `${folder.name}/${file.name}: ${imported.problems[0]?.path} ${imported.problems[0]?.problem}`,
          );
      } catch (err) {
        problems.push(`${folder.name}/${file.name}: ${(err as Error).message}`);
      }
    }
  }
  templates.sort((a, b) => a.name.localeCompare(b.name));
  return { templates, problems };
}
