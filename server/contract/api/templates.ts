import { Type } from "typebox";

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
  isBuiltIn: Type.Optional(Type.Boolean()),
});

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
