import { type Static, type TSchema, Type } from "typebox";
import type { EggRule, Group, ServerLimits, Template, Variable } from "../../templates/index.ts";

/**
 * The parts of a server definition (server/templates/types.ts) that cross the
 * panel↔node seam inside other answers, as TypeBox schemas. The template
 * module stays pure (the browser uses it); each schema here is held to its
 * interface by `agrees`, so the two cannot drift apart without tsc saying so.
 */

/** Compiles only when A and B are the same type. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** `agrees<Same<Static<typeof S>, T>>()`: a type check, nothing at run time. */
export const agrees = <_ extends true>(): void => undefined;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const VariableValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

export const WireVariable = Type.Object({
  type: Type.Union([
    Type.Literal("string"),
    Type.Literal("integer"),
    Type.Literal("boolean"),
    Type.Literal("option"),
  ]),
  value: VariableValue,
  display: Type.Optional(Type.String()),
  desc: Type.Optional(Type.String()),
  required: Type.Optional(Type.Boolean()),
  userEdit: Type.Optional(Type.Boolean()),
  internal: Type.Optional(Type.Boolean()),
  options: Type.Optional(
    Type.Array(Type.Object({ value: VariableValue, display: Type.Optional(Type.String()) })),
  ),
});
agrees<Same<Static<typeof WireVariable>, Variable>>();

export const WireGroup = Type.Object({
  if: Type.Optional(Type.String()),
  display: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  variables: Type.Array(Type.String()),
  order: Type.Optional(Type.Number()),
});
agrees<Same<Static<typeof WireGroup>, Group>>();

export const WireEggRule = Type.Object({
  minValue: Type.Optional(Type.Number()),
  maxValue: Type.Optional(Type.Number()),
  minLength: Type.Optional(Type.Number()),
  maxLength: Type.Optional(Type.Number()),
  numeric: Type.Optional(Type.Boolean()),
  patterns: Type.Optional(Type.Array(Type.Object({ source: Type.String(), flags: Type.String() }))),
  notIn: Type.Optional(Type.Array(Type.String())),
});
agrees<Same<Static<typeof WireEggRule>, EggRule>>();

export const WireServerLimits = Type.Object({
  memoryMiB: Type.Optional(Type.Number()),
  pids: Type.Optional(Type.Number()),
  cpuPercent: Type.Optional(Type.Number()),
  diskMiB: Type.Optional(Type.Number()),
  swapMiB: Type.Optional(Type.Union([Type.Number(), Type.Literal("unlimited")])),
  ioWeight: Type.Optional(Type.Number()),
  cpuThreads: Type.Optional(Type.String()),
});
agrees<Same<Static<typeof WireServerLimits>, ServerLimits>>();

/**
 * A stored definition as the node answers it (GET …/definition): the fields
 * every definition has, checked here; operations and environments in full are
 * the template module's to check (parseTemplate), so they pass as objects.
 */
export const WireTemplate = Type.Unsafe<Template>(
  Type.Object(
    {
      type: Type.String(),
      data: Type.Record(Type.String(), WireVariable),
      groups: Type.Optional(Type.Array(WireGroup)),
      install: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
      uninstall: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
      run: Type.Record(Type.String(), Type.Unknown()),
      environment: Type.Object({ type: Type.String() }, { additionalProperties: true }),
      requirements: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      limits: Type.Optional(WireServerLimits),
    },
    { additionalProperties: true },
  ),
);

/**
 * A body the node's own parser checks field by field and names the bad one
 * (a definition: ErrTemplate…, a task: ErrTaskInvalid): any JSON value here.
 */
export const ParsedByNode = (description: string) => Type.Unknown({ description });
