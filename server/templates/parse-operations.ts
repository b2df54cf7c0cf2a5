import { readCondition } from "./conditions.ts";
import { parseConsoleConfig } from "./console-config.ts";
import { parseGoDuration } from "./duration.ts";
import {
  readBoolean,
  readList,
  readObject,
  readString,
  readStringList,
  readStringMap,
  requireField,
} from "./fields.ts";
import {
  type FieldKind,
  fieldsOf,
  isOperationType,
  type Operation,
  operationTypes,
} from "./operation-kinds.ts";
import { childPath, type Problems } from "./problems.ts";

function readDuration(value: unknown, path: string, problems: Problems): string | undefined {
  const text = readString(value, path, problems);
  if (text !== undefined && !text.includes("${") && parseGoDuration(text) === undefined) {
    problems.push({ path, problem: `"${text}" is not a duration such as "5s" or "1m30s"` });
  }
  return text;
}

const readers: Record<FieldKind, (value: unknown, path: string, problems: Problems) => unknown> = {
  string: readString,
  strings: readStringList,
  boolean: readBoolean,
  stringMap: readStringMap,
  console: parseConsoleConfig,
  duration: readDuration,
};

/** One operation, checked against its type's fields; fields no type knows are dropped, as in Go. */
export function parseOperation(raw: unknown, path: string, problems: Problems): Operation | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const type = object.type;
  if (typeof type !== "string" || !isOperationType(type)) {
    problems.push({
      path: childPath(path, "type"),
      problem: `unknown operation type ${JSON.stringify(type)} (one of ${operationTypes.join(", ")})`,
    });
    return undefined;
  }
  const operation: Record<string, unknown> = { type };
  const condition = readCondition(object.if, childPath(path, "if"), problems);
  if (condition !== undefined) operation.if = condition;
  for (const [name, spec] of fieldsOf(type)) {
    const fieldPath = childPath(path, name);
    if (spec.required && !requireField(object[name], fieldPath, problems)) continue;
    const value = readers[spec.kind](object[name], fieldPath, problems);
    if (value !== undefined) operation[name] = value;
  }
  return operation as Operation;
}

export function parseOperations(raw: unknown, path: string, problems: Problems): Operation[] | undefined {
  const list = readList(raw, path, problems);
  if (!list) return undefined;
  const operations: Operation[] = [];
  list.forEach((item, index) => {
    const operation = parseOperation(item, childPath(path, index), problems);
    if (operation) operations.push(operation);
  });
  return operations;
}
