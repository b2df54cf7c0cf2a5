import { type Static, Type } from "typebox";
import type { Environment, Requirements } from "../../templates/index.ts";

// -1 is the built-in starter repository, 0 the local one, stored repositories count up from 1.
export const RepoParams = Type.Object({ repo: Type.Integer({ minimum: -1 }) });
export const RepoTemplateParams = Type.Object({
  repo: Type.Integer({ minimum: -1 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
});

/** `?retry=true`: fetch a repository that failed just now again at once (the Retry button). */
export const RepoListQuery = Type.Object({ retry: Type.Optional(Type.Boolean()) });

export const RepoView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  branch: Type.String(),
  isLocal: Type.Boolean(),
  /** The starter templates shipped with the panel: read-only, cannot be removed. */
  isBuiltIn: Type.Optional(Type.Boolean()),
});
export type RepoView = Static<typeof RepoView>;

/** Environments and requirements are the template module's own shapes, checked where templates are read. */
const TemplateEnvironment = Type.Unsafe<Environment>(
  Type.Object({ type: Type.String() }, { additionalProperties: true }),
);

/** GET /api/templates/{repo}: what the template picker needs of each template (reference §12.15). */
export const TemplateSummary = Type.Object({
  name: Type.String(),
  display: Type.String(),
  type: Type.String(),
  icon: Type.Optional(Type.String()),
  environment: TemplateEnvironment,
  supportedEnvironments: Type.Optional(Type.Array(TemplateEnvironment)),
  requirements: Type.Unsafe<Requirements>(Type.Object({}, { additionalProperties: true })),
});
export type TemplateSummary = Static<typeof TemplateSummary>;

export const RepoCreateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  url: Type.String({ maxLength: 1000 }),
  branch: Type.Optional(Type.String({ maxLength: 200 })),
});

/** POST /api/templates/import: a template's or an egg's address (ours). */
export const TemplateImportBody = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }) });
/** Its text as the address gave it: the browser converts and checks it as an uploaded file. */
export const TemplateImportView = Type.Object({ text: Type.String() });

export const TemplateBody = Type.Object({}, { additionalProperties: true });
