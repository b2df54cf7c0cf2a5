import fs from "node:fs";
import path from "node:path";
import { ApiError } from "../errors.ts";
import {
  environmentsOf,
  importTemplate,
  isEgg,
  parseDocumentText,
  renderRun,
  type Template,
  userValueNames,
  variableValues,
} from "../templates/index.ts";

export interface CheckedFile {
  file: string;
  ok: boolean;
  /** What it is (`egg PLCN_v3`, `template`) when it converts; why not when it does not. */
  detail: string;
}

/** Files a folder holds that may be templates or eggs: JSON and YAML, not the template repo's tester data. */
export function documentFiles(target: string): string[] {
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs
    .readdirSync(target, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(target, entry.name);
      if (entry.isDirectory()) return documentFiles(full);
      return /\.(json|ya?ml)$/i.test(entry.name) && !["data.json", "spec.json"].includes(entry.name)
        ? [full]
        : [];
    });
}

/**
 * A run command must render for each environment with every editable
 * default taken as a user's value: what a server created from it will do.
 */
function renderProblem(template: Template): string | undefined {
  for (const environment of environmentsOf(template)) {
    try {
      renderRun(template.run, {
        serverId: "0a1b2c3d",
        rootDir: "/srv/outpost/0a1b2c3d",
        os: "linux",
        arch: "amd64",
        env: environment.type,
        variables: variableValues(template.data),
        userValues: userValueNames(template.data),
      });
    } catch (error) {
      return `run command does not render: ${readable(error)}`;
    }
  }
  return undefined;
}

/** An API error's message with its metadata filled in. */
function readable(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  return error.message.replace(/\$\{(\w+)\}/g, (match, key: string) =>
    String(error.metadata?.[key] ?? match),
  );
}

export function checkDocument(file: string, text: string): CheckedFile {
  const read = parseDocumentText(text);
  if (!read.ok) return { file, ok: false, detail: read.problem };
  const result = importTemplate(read.document);
  if (!result.ok) {
    const [first] = result.problems;
    const more = result.problems.length > 1 ? ` (and ${result.problems.length - 1} more)` : "";
    return { file, ok: false, detail: `${first.path || "(document)"}: ${first.problem}${more}` };
  }
  const problem = renderProblem(result.template);
  if (problem) return { file, ok: false, detail: problem };
  const document = read.document as { meta?: { version?: string } };
  return { file, ok: true, detail: isEgg(document) ? `egg ${document.meta?.version}` : "template" };
}

/** `outpost template check <file|folder>…`: converts and validates without saving, one line per file. */
export function templateCheck(targets: string[], print: (line: string) => void = console.log): boolean {
  if (targets.length === 0) throw new Error("usage: outpost template check <file|folder>…");
  const results = targets.flatMap(documentFiles).map((file) => {
    const checked = checkDocument(file, fs.readFileSync(file, "utf8"));
    print(`${checked.ok ? "ok  " : "FAIL"} ${file}: ${checked.detail}`);
    return checked;
  });
  const passed = results.filter((result) => result.ok).length;
  const percent = results.length ? ((100 * passed) / results.length).toFixed(1) : "0";
  print(`${passed} of ${results.length} files convert and validate (${percent} %)`);
  return passed === results.length;
}
