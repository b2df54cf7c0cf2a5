import { useCallback, useEffect, useRef, useState } from "react";
import { lastKnownAt } from "../../api/client";
import { type ApiError, isApiError, toApiError } from "../../api/errors";
import { listRepos, listTemplates, type TemplateRepo, type TemplateSummary } from "../../api/templates";
import { reportSessionEnd } from "../../app/background";
import { type KnownRepo, lastKnown, remember } from "../../offline/lastKnown";
import { backOnline } from "../../offline/network";

export interface RepoState extends TemplateRepo {
  /** Undefined until the first listing (fresh or last-known) is there. */
  templates?: TemplateSummary[];
  /** This visit's own answer has not arrived yet. */
  loading: boolean;
  /** The listing failed: kept on the repo (spec §8), the others still list. */
  error?: ApiError;
}

export interface TemplateRepos {
  repos: RepoState[] | undefined;
  failed: boolean;
  /** This visit's own answer arrived (before that, `repos` may be the last-known listing). */
  fresh: boolean;
  /** When the shown listing was read. */
  at: number | undefined;
  /** A repo just added: listed before the local one and read at once. */
  added: (repo: TemplateRepo) => void;
  removed: (id: number) => void;
  /** Fetches a repository whose listing failed again, at once. */
  retry: (id: number) => void;
}

const asApiError = (err: unknown, repo: number): ApiError =>
  isApiError(err)
    ? err
    : toApiError({ method: "GET", url: `/api/templates/${repo}` }, undefined, undefined, undefined, err);

/** Every repository with its templates; each repo's listing arrives (or fails) on its own. */
export function useTemplateRepos(): TemplateRepos {
  const [repos, setRepos] = useState<RepoState[]>();
  const [failed, setFailed] = useState(false);
  const [fresh, setFresh] = useState(false);
  const [at, setAt] = useState<number>();
  const live = useRef(true);
  const again = backOnline.value;

  const update = useCallback((id: number, change: Partial<RepoState>) => {
    if (live.current) setRepos((list) => list?.map((r) => (r.id === id ? { ...r, ...change } : r)));
  }, []);

  const load = useCallback(
    (repo: TemplateRepo, retry = false) => {
      // Failures stay off the global handler: the repo's section shows them.
      listTemplates(repo.id, { exempt: true, ...(retry ? { query: { retry: true } } : {}) }).then(
        (templates) =>
          update(repo.id, {
            templates: Array.isArray(templates) ? templates : [],
            loading: false,
            error: undefined,
          }),
        (err) => {
          reportSessionEnd(err);
          update(repo.id, { templates: [], loading: false, error: asApiError(err, repo.id) });
        },
      );
    },
    [update],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` (back online) is a re-read trigger
  useEffect(() => {
    live.current = true;
    let answered = false;
    void lastKnown("templates").then((cached) => {
      if (!live.current || answered || !cached) return;
      setAt((a) => a ?? cached.at);
      // Shown as it was kept; a failed fresh read (offline) leaves it so.
      setRepos((list) => list ?? cached.value.map((r) => ({ ...r, loading: false })));
    });
    listRepos().then(
      (list) => {
        answered = true;
        if (!live.current) return;
        // Offline, the service worker answers with its last-known copy: shown with its age.
        const kept = lastKnownAt(list);
        setFresh(kept === undefined);
        setFailed(false);
        setAt(kept ?? Date.now());
        setRepos((shown) =>
          list.map((r) => ({ ...r, loading: true, templates: shown?.find((s) => s.id === r.id)?.templates })),
        );
        for (const r of list) load(r);
      },
      () => {
        if (!live.current) return;
        setFailed(true);
        setFresh(false);
      },
    );
    return () => {
      live.current = false;
    };
  }, [load, again]);

  // Remember this visit's listing once every repo answered (never the kept copy again).
  useEffect(() => {
    if (!fresh || !repos || repos.some((r) => r.loading)) return;
    const known: KnownRepo[] = repos
      .filter((r) => !r.error)
      .map(({ id, name, url, branch, isLocal, isBuiltIn, templates }) => ({
        id,
        name,
        url,
        branch,
        isLocal,
        ...(isBuiltIn ? { isBuiltIn } : {}),
        templates: templates ?? [],
      }));
    void remember("templates", known);
  }, [repos, fresh]);

  return {
    repos,
    failed,
    fresh,
    at,
    added: (repo) => {
      setRepos((list) => {
        const entry: RepoState = { ...repo, loading: true };
        const rest = (list ?? []).filter((r) => r.id !== repo.id);
        const local = rest.findIndex((r) => r.isLocal);
        return local < 0 ? [...rest, entry] : [...rest.slice(0, local), entry, ...rest.slice(local)];
      });
      load(repo);
    },
    removed: (id) => setRepos((list) => list?.filter((r) => r.id !== id)),
    retry: (id) => {
      const repo = repos?.find((r) => r.id === id);
      if (!repo) return;
      update(id, { loading: true });
      load(repo, true);
    },
  };
}
