import type { RepoView, TemplateSummary } from "../../server/contract/api/templates.ts";
import type { Template } from "../../server/templates/index.ts";
import { type CallOptions, del, get, post, put } from "./client";
import { type ApiError, isApiError, toApiError } from "./errors";

// /api/templates (spec §7, reference §12.15).

export type TemplateRepo = RepoView;
/** What a repo listing gives per template: the fields a picker needs. */
export type { TemplateSummary };

/** The full template as GET /api/templates/{repo}/{name} answers it. */
export type FullTemplate = Template & { name?: string; readme?: string };

/** A repo with its templates, or the error its listing gave (spec §8: kept on the repo). */
export interface RepoListing extends TemplateRepo {
  templates: TemplateSummary[];
  error?: ApiError;
}

export const LOCAL_REPO = 0;

export const listRepos = (opts?: CallOptions) => get<TemplateRepo[]>("/api/templates", opts);
export const listTemplates = (repo: number, opts?: CallOptions) =>
  get<TemplateSummary[]>(`/api/templates/${repo}`, opts);
export const getTemplate = (repo: number, name: string, opts?: CallOptions) =>
  get<FullTemplate>(`/api/templates/${repo}/${encodeURIComponent(name)}`, opts);

/**
 * Every repo with its templates. A repo whose listing fails keeps the error on its entry and the
 * others still list; those failures do not reach the global handler (the picker shows them). A
 * 401 is thrown for the caller to end the session.
 */
export async function listAllTemplates(opts?: CallOptions): Promise<RepoListing[]> {
  const repos = await listRepos(opts);
  return Promise.all(
    repos.map(async (repo): Promise<RepoListing> => {
      try {
        const templates = await listTemplates(repo.id, { ...opts, exempt: true });
        return { ...repo, templates: Array.isArray(templates) ? templates : [] };
      } catch (err) {
        if (isApiError(err) && err.status === 401) throw err;
        const error = isApiError(err)
          ? err
          : toApiError(
              { method: "GET", url: `/api/templates/${repo.id}` },
              undefined,
              undefined,
              undefined,
              err,
            );
        return { ...repo, templates: [], error };
      }
    }),
  );
}

// Template screens: local edits and repository management.

export interface RepoFields {
  name: string;
  url: string;
  branch?: string;
}

export const deleteLocalTemplate = (name: string, opts?: CallOptions) =>
  del<void>(`/api/templates/${LOCAL_REPO}/${encodeURIComponent(name)}`, opts);
export const saveLocalTemplate = (name: string, body: unknown, opts?: CallOptions) =>
  put<void>(`/api/templates/${LOCAL_REPO}/${encodeURIComponent(name)}`, body, opts);
export const addRepo = (body: RepoFields, opts?: CallOptions) =>
  post<TemplateRepo>("/api/templates", body, opts);
/** A template's or an egg's text, fetched by the panel from an address (POST /api/templates/import, ours). */
export const fetchTemplateText = (url: string, opts?: CallOptions) =>
  post<{ text: string }>("/api/templates/import", { url }, opts);
export const deleteRepo = (repo: number, opts?: CallOptions) => del<void>(`/api/templates/${repo}`, opts);

/** Whether a template exists (spec §7: a 404 means no, without a toast). */
export async function templateExists(repo: number, name: string): Promise<boolean> {
  try {
    await getTemplate(repo, name, { exempt: [404] });
    return true;
  } catch (err) {
    if (isApiError(err) && err.status === 404) return false;
    throw err;
  }
}
