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
}

const required = <K extends FieldKind>(kind: K) => ({ kind, required: true }) as const;
const optional = <K extends FieldKind>(kind: K) => ({ kind }) as const;

/** Forge-style downloaders and resolvers share these fields. */
const forgeFields = {
  version: optional("string"),
  minecraftVersion: optional("string"),
  target: optional("string"),
  outputVariable: optional("string"),
} as const;

export const operationFields = {
  alterfile: {
    file: required("string"),
    search: required("string"),
    replace: required("string"),
    regex: optional("boolean"),
  },
  archive: { source: required("strings"), destination: required("string") },
  command: { commands: required("strings"), stdin: optional("console") },
  console: { message: required("string") },
  curseforge: { projectId: required("string"), fileId: optional("string"), java: optional("string") },
  dockerpull: { imageName: required("string") },
  download: { files: required("strings") },
  extract: { source: required("string"), destination: required("string") },
  fabricdl: {},
  forgedl: { ...forgeFields, target: required("string") },
  javadl: { version: required("string") },
  mkdir: { target: required("string") },
  mojangdl: { version: required("string"), target: required("string") },
  move: { source: required("string"), target: required("string") },
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
    extraArgs: optional("string"),
  },
  writefile: { target: required("string"), text: required("string") },
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
