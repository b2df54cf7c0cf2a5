import fs from "node:fs/promises";
import path from "node:path";
import { serverIdPattern } from "../../contract/constants.ts";
import { ApiError } from "../../errors.ts";
import { ensurePrivateFile, privateFileMode } from "../../secrets/private-files.ts";
import { checkVariableValue, parseTemplate, type Template, templateErrors } from "../../templates/index.ts";

/**
 * A server's definition lives next to its folder as `<id>.json`, written
 * atomically and readable by the node's user only (it holds the server's
 * variables, passwords among them).
 */
export async function saveDefinition(serversDir: string, id: string, definition: Template): Promise<void> {
  const file = path.join(serversDir, `${id}.json`);
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify({ ...definition, id }, null, 2), { mode: privateFileMode });
  await fs.rename(temp, file);
}

export async function loadDefinition(serversDir: string, id: string): Promise<Template> {
  const file = path.join(serversDir, `${id}.json`);
  // A definition written by an older version may be world-readable.
  ensurePrivateFile(file);
  const raw = JSON.parse(await fs.readFile(file, "utf8"));
  return checkedDefinition(raw);
}

/** Parses a definition or throws ErrTemplateInvalid naming the first problem. */
export function checkedDefinition(raw: unknown): Template {
  const parsed = parseTemplate(raw);
  if (!parsed.ok) throw templateErrors.invalid(parsed.problems);
  return parsed.template;
}

/**
 * A new or replaced definition's values checked as a user's are (checkVariableValue): of their
 * type, one of their options, no control characters. Definitions already on disk load as they are.
 */
export function checkedValues(definition: Template): Template {
  for (const [name, variable] of Object.entries(definition.data)) {
    const checked = checkVariableValue(variable, variable.value, definition.egg?.rules?.[name]);
    if (!checked.ok) throw templateErrors.variableInvalid(name, checked.problem);
  }
  return definition;
}

export async function listDefinitionIds(serversDir: string): Promise<string[]> {
  const entries = await fs.readdir(serversDir).catch(() => [] as string[]);
  return entries.filter((e) => e.endsWith(".json")).map((e) => e.slice(0, -5));
}

export async function removeDefinition(serversDir: string, id: string): Promise<void> {
  await fs.rm(path.join(serversDir, `${id}.json`), { force: true });
}

export function checkServerId(id: string): string {
  if (!serverIdPattern.test(id))
    throw new ApiError(400, "ErrServerIdInvalid", "a server id is 1 to 64 letters, digits, - or _");
  return id;
}
