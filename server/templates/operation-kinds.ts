import type { TokenRole } from "./substitute.ts";
import type { ConsoleConfig } from "./types.ts";

/**
 * Every operation type a definition may use (install, uninstall, run.pre,
 * run.post, tasks) and its fields. This table is the single source: the
 * parser validates against it, substitution walks it, and the TypeScript
 * type of each operation is derived from it. Field lists follow the v3
 * schema and the Go factories (templates.md §4).
 */

export type FieldKind = "string" | "strings" | "boolean" | "stringMap" | "console" | "duration";

export interface FieldSpec {
  readonly kind: FieldKind;
  readonly required?: true;
  /** What the text is, so that a user's value in it stays a value (substituteTokens); text when unset. */
  readonly role?: TokenRole;
}

const required = <K extends FieldKind, R extends TokenRole = "text">(kind: K, role?: R) =>
  ({ kind, required: true, ...(role ? { role } : {}) }) as const;
const optional = <K extends FieldKind, R extends TokenRole = "text">(kind: K, role?: R) =>
  ({ kind, ...(role ? { role } : {}) }) as const;

/** Forge-style downloaders and resolvers share these fields. */
const forgeFields = {
  version: optional("string"),
  minecraftVersion: optional("string"),
  target: optional("string", "path"),
  outputVariable: optional("string"),
} as const;

export const operationFields = {
  alterfile: {
    file: required("string", "path"),
    search: required("string"),
    replace: required("string"),
    regex: optional("boolean"),
  },
  archive: { source: required("strings", "path"), destination: required("string", "path") },
  command: { commands: required("strings", "command"), stdin: optional("console") },
  console: { message: required("string", "line") },
  curseforge: { projectId: required("string"), fileId: optional("string"), java: optional("string") },
  dockerpull: { imageName: required("string") },
  download: { files: required("strings", "url") },
  extract: { source: required("string", "path"), destination: required("string", "path") },
  fabricdl: {},
  forgedl: { ...forgeFields, target: required("string", "path") },
  javadl: { version: required("string") },
  mkdir: { target: required("string", "path") },
  mojangdl: { version: required("string"), target: required("string", "path") },
  move: { source: required("string", "path"), target: required("string", "path") },
  // An Outpost addition (issue 37): a Modrinth modpack (.mrpack) installed as the server's files.
  mrpack: { url: required("string", "url") },
  neoforgedl: forgeFields,
  resolveforgeversion: { ...forgeFields, outputVariable: required("string") },
  resolveneoforgeversion: { ...forgeFields, outputVariable: required("string") },
  sleep: { duration: required("duration") },
  spongedl: {
    spongeType: required("string"),
    spongeVersion: optional("string"),
    minecraftVersion: optional("string"),
    recommended: optional("boolean"),
  },
  steamgamedl: {
    appId: required("string"),
    username: optional("string"),
    password: optional("string"),
    extraArgs: optional("string", "command"),
  },
  writefile: { target: required("string", "path"), text: required("string") },
} as const satisfies Record<string, Record<string, FieldSpec>>;

export type OperationType = keyof typeof operationFields;

export const operationTypes = Object.keys(operationFields) as OperationType[];

export function isOperationType(type: string): type is OperationType {
  return Object.hasOwn(operationFields, type);
}

/** The fields of one operation type, as a plain list for code that walks them. */
export function fieldsOf(type: OperationType): [string, FieldSpec][] {
  return Object.entries(operationFields[type]);
}

interface KindValues {
  string: string;
  strings: string[];
  boolean: boolean;
  stringMap: Record<string, string>;
  console: ConsoleConfig;
  duration: string;
}

type ValueOf<S> = S extends { kind: infer K extends FieldKind } ? KindValues[K] : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type FieldValues<S> = Simplify<
  { -readonly [K in keyof S as S[K] extends { required: true } ? K : never]: ValueOf<S[K]> } & {
    -readonly [K in keyof S as S[K] extends { required: true } ? never : K]?: ValueOf<S[K]>;
  }
>;

/** One operation of the given type: `{type, if?, ...its fields}`. */
export type OperationOf<T extends OperationType> = Simplify<
  { type: T; if?: string } & FieldValues<(typeof operationFields)[T]>
>;

/** Any operation, discriminated by `type`. */
export type Operation = { [T in OperationType]: OperationOf<T> }[OperationType];
