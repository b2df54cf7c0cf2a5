import { createRequire } from "node:module";
import type { FastifyServerOptions } from "fastify";
import { validatorCompiler } from "./validation.ts";

type Compilers = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;
type SerializerFactory = NonNullable<Compilers["buildSerializer"]>;
type ValidatorFactory = NonNullable<Compilers["buildValidator"]>;

// Fastify's type wants an Ajv-shaped compiler; it calls it like any validator compiler.
const buildValidator = (() => validatorCompiler) as unknown as ValidatorFactory;

/**
 * Fastify's schema compilers for the panel, each compiled on a route's first
 * use rather than at start: most routes of an idle panel are never called, and
 * each compiled validator or response serializer keeps its generated source
 * and code in memory. Fastify's default Ajv compiler is never loaded (every
 * route is checked by validation.ts), and fast-json-stringify (with its own
 * Ajv) loads with the first answer that has a response schema.
 */
export const panelSchemaController: NonNullable<FastifyServerOptions["schemaController"]> = {
  compilersFactory: {
    buildValidator,
    buildSerializer: (externalSchemas, options) => {
      let compile: ReturnType<SerializerFactory> | undefined;
      return (route) => {
        let serialize: ((data: unknown) => string) | undefined;
        return (data: unknown) => {
          compile ??= loadSerializerFactory()(externalSchemas, options);
          serialize ??= compile(route);
          return serialize(data);
        };
      };
    },
  },
};

/** Synchronous (a serializer is asked for in the middle of an answer); the panel's build keeps npm packages external. */
function loadSerializerFactory(): SerializerFactory {
  const { SerializerSelector } = createRequire(import.meta.url)("@fastify/fast-json-stringify-compiler") as {
    SerializerSelector: () => SerializerFactory;
  };
  return SerializerSelector();
}
