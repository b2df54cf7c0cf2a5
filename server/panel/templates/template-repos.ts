import path from "node:path";
import type { RepoView, TemplateSummary } from "../../contract/api/templates.ts";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import { repoRoot } from "../../repo-root.ts";
import { importTemplate, isEgg, type Template, templateErrors } from "../../templates/index.ts";
import { RemoteRepos } from "./remote-repos.ts";
import { checkedRepoAddress } from "./repo-address.ts";
import { type RepoTemplate, readRepo } from "./repo-reader.ts";
import { localeOf, localize, readStarterTexts, type StarterTexts } from "./starter-texts.ts";
import { fetchTemplateText } from "./template-import.ts";
import { stripPanelFields, vouchedTemplateIn } from "./template-vouching.ts";

export const localRepoId = 0;
/** The starter repository's id: below every stored repository's (they count up from 1). */
export const starterRepoId = -1;
/** Where the starter templates ship: beside the server code, in the upstream repository layout. */
export const starterDir = path.join(repoRoot, "starter-templates");
const namePattern = /^[A-Za-z0-9._-]{1,100}$/;
const noTemplate = (template: string) =>
  new ApiError(404, "ErrNoTemplate", "no template ${template}", { template });

function summary(name: string, t: Template): TemplateSummary {
  const out: TemplateSummary = {
    name,
    display: t.display ?? name,
    type: t.type,
    environment: t.environment,
    requirements: t.requirements,
  };
  if (t.icon) out.icon = t.icon;
  if (t.supportedEnvironments) out.supportedEnvironments = t.supportedEnvironments;
  return out;
}

/**
 * Template repositories: the local one (id 0) in the database, editable;
 * others fetched by URL into a cache and read-only. A repository that cannot
 * be fetched answers ErrRepoUnavailable with the reason, and the others
 * still list.
 */
export class TemplateRepos {
  private readonly remote: RemoteRepos;
  private starter: Promise<RepoTemplate[]> | undefined;
  private starterTexts: Map<string, StarterTexts> | undefined;

  constructor(
    private readonly db: Db,
    cacheDir: string,
    private readonly starterFolder = starterDir,
  ) {
    this.remote = new RemoteRepos(db, cacheDir);
  }

  async repos(): Promise<RepoView[]> {
    const rows = await this.db.selectFrom("template_repos").selectAll().orderBy("id").execute();
    return [
      { id: starterRepoId, name: "Starter", url: "", branch: "", isLocal: false, isBuiltIn: true },
      ...rows.map((r) => ({ id: r.id, name: r.name, url: r.url, branch: r.branch, isLocal: false })),
      { id: localRepoId, name: "Local", url: "", branch: "", isLocal: true },
    ];
  }

  /** A repository's templates; `retry` fetches one that failed at once rather than after retryFailedAfterMs. */
  async list(
    repoId: number,
    opts: { retry?: boolean; acceptLanguage?: string } = {},
  ): Promise<TemplateSummary[]> {
    if (repoId === localRepoId) {
      const rows = await this.db.selectFrom("templates").selectAll().orderBy("name").execute();
      return rows.map((r) => summary(r.name, JSON.parse(r.body)));
    }
    if (opts.retry) this.remote.retryNow(repoId);
    const texts = this.textsFor(repoId, opts.acceptLanguage);
    return (await this.read(repoId)).map((t) => summary(t.name, localize(t.template, texts?.[t.name])));
  }

  /** The starter templates' texts in the locale a request asks for; undefined for other repositories or English. */
  private textsFor(repoId: number, acceptLanguage: string | undefined): StarterTexts | undefined {
    if (repoId !== starterRepoId) return undefined;
    const all = this.allStarterTexts();
    const locale = localeOf(acceptLanguage, all.keys());
    return locale ? all.get(locale) : undefined;
  }

  private allStarterTexts(): Map<string, StarterTexts> {
    this.starterTexts ??= readStarterTexts(path.join(repoRoot, "locales"));
    return this.starterTexts;
  }

  async get(
    repoId: number,
    name: string,
    acceptLanguage?: string,
  ): Promise<Template & { name: string; readme?: string }> {
    if (repoId === localRepoId) {
      const row = await this.db
        .selectFrom("templates")
        .selectAll()
        .where("name", "=", name)
        .executeTakeFirst();
      if (!row) throw noTemplate(name);
      return { ...JSON.parse(row.body), name };
    }
    const found = (await this.read(repoId)).find((t) => t.name === name);
    if (!found) throw noTemplate(name);
    const template = localize(found.template, this.textsFor(repoId, acceptLanguage)?.[name]);
    return { ...template, name, ...(found.readme ? { readme: found.readme } : {}) };
  }

  /**
   * Saves a template in the local repository; old-format templates are converted. `byAdmin`: an
   * administrator wrote it, so non-administrators may create servers from it (vouchedTemplateOf).
   */
  async putLocal(name: string, body: unknown, byAdmin: boolean): Promise<void> {
    if (!namePattern.test(name)) {
      throw new ApiError(400, "ErrFieldHasURICharacters", "${field} has characters that are not allowed", {
        field: "name",
      });
    }
    // An egg's `name` is its display name, not the panel's field.
    const imported = importTemplate(isEgg(body) ? body : stripPanelFields(body));
    if (!imported.ok) throw templateErrors.invalid(imported.problems);
    const json = JSON.stringify(imported.template);
    const row = { body: json, updated_at: Date.now(), by_admin: byAdmin ? 1 : 0 };
    await this.db
      .insertInto("templates")
      .values({ name, ...row })
      .onConflict((oc) => oc.column("name").doUpdateSet(row))
      .execute();
  }

  async deleteLocal(name: string): Promise<void> {
    const result = await this.db.deleteFrom("templates").where("name", "=", name).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw noTemplate(name);
  }

  /**
   * Adds a read-only repository: a git URL, a .tar.gz or .zip archive URL,
   * or (for administrators: it reads the panel host's disk) a folder on the
   * panel's host, as `/path` or `file:///path`. `byAdmin`: an administrator adds it, so its
   * templates are ones non-administrators may create servers from (vouchedTemplateOf).
   */
  async addRepo(
    input: { name: string; url: string; branch?: string },
    opts: { byAdmin: boolean },
  ): Promise<RepoView> {
    const name = input.name.trim();
    if (!name || name.length > 100)
      throw new ApiError(400, "ErrFieldLength", "${field} must be between ${min} and ${max} characters", {
        field: "name",
        min: 1,
        max: 100,
      });
    if (["local", "starter"].includes(name.toLowerCase()))
      throw new ApiError(409, "ErrRepoExists", "a repository named ${name} exists", { name });
    const url = await checkedRepoAddress(input.url.trim(), opts.byAdmin);
    const existing = await this.db
      .selectFrom("template_repos")
      .select("id")
      .where("name", "=", name)
      .executeTakeFirst();
    if (existing) throw new ApiError(409, "ErrRepoExists", "a repository named ${name} exists", { name });
    const row = await this.db
      .insertInto("template_repos")
      .values({
        name,
        url,
        branch: input.branch?.trim() ?? "",
        created_at: Date.now(),
        by_admin: opts.byAdmin ? 1 : 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { id: row.id, name: row.name, url: row.url, branch: row.branch, isLocal: false };
  }

  /** A template's or an egg's text fetched by URL for the import (template-import.ts). */
  importText(url: string, opts: { byAdmin: boolean }): Promise<string> {
    return fetchTemplateText(url, opts);
  }

  /**
   * The template a non-administrator's server definition was made from, rebuilt from the template
   * as it is stored; undefined when it was made from none. Only templates an administrator vouched
   * for count: the starter ones, those of a repository an administrator added, local ones an
   * administrator wrote (a template is code: whoever may write one may not also run it on a node
   * through it). The definition must be the template's in every part but those a creator picks:
   * variable values (of the template's own variables) and the environment, one the template offers.
   */
  async vouchedTemplateOf(definition: Record<string, unknown>): Promise<Template | undefined> {
    return vouchedTemplateIn(definition, this.vouchedTemplates());
  }

  /** Every template an administrator vouched for: starter, administrators' repositories, their local ones. */
  private async *vouchedTemplates(): AsyncGenerator<Template> {
    for (const { template, name } of await this.read(starterRepoId)) {
      yield template;
      // A server made from a starter template shown in a user's language is made from that template.
      for (const texts of this.allStarterTexts().values()) yield localize(template, texts[name]);
    }
    const repos = await this.db.selectFrom("template_repos").select("id").where("by_admin", "=", 1).execute();
    for (const { id } of repos) {
      // A repository that cannot be read now offers nothing now.
      const templates = await this.read(id).catch(() => []);
      for (const { template } of templates) yield template;
    }
    const local = await this.db.selectFrom("templates").select("body").where("by_admin", "=", 1).execute();
    for (const { body } of local) yield JSON.parse(body) as Template;
  }

  async deleteRepo(repoId: number): Promise<void> {
    if (repoId === localRepoId)
      throw new ApiError(400, "ErrCannotDeleteLocalRepo", "the local repository cannot be removed");
    if (repoId === starterRepoId)
      throw new ApiError(
        400,
        "ErrRepoReadOnly",
        "the starter repository ships with the panel and cannot be removed",
      );
    const result = await this.db.deleteFrom("template_repos").where("id", "=", repoId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ApiError(404, "ErrRepoNotFound", "no such repository");
    await this.remote.forget(repoId);
  }

  /** A read-only repository's templates: the starter ones (read once), or a fetched one's. */
  private read(repoId: number): Promise<RepoTemplate[]> {
    if (repoId !== starterRepoId) return this.remote.templates(repoId);
    this.starter ??= readRepo(this.starterFolder).then(({ templates, problems }) => {
      // A starter template that does not import is our bug, and a test catches it; never hide it.
      if (problems.length) throw new Error(`starter templates: ${problems.join("; ")}`);
      return templates;
    });
    return this.starter;
  }
}
