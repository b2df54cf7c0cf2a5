import type { TSchema } from "typebox";

/**
 * The keyword that marks a field as a secret: its value never reaches the
 * activity log (activity-secrets.ts reads it off each route's schemas), whatever
 * the field is called. Validators ignore it (an `x-` keyword, and Ajv runs
 * non-strict), so marking a field changes nothing else.
 */
export const secretMark = "x-secret";

/**
 * `schema`, marked secret. A copy with every property kept, the ones TypeBox
 * keeps out of sight (`~optional`, `~kind`) too: a plain spread would turn an
 * optional field required.
 */
export function secret<T extends TSchema>(schema: T): T {
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(schema),
      [secretMark]: { value: true, enumerable: true, writable: false, configurable: true },
    },
  ) as T;
}
