import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RepoView, TemplateSummary } from "../../contract/api/templates.ts";
import type { Db } from "../../db/database.ts";
import { ApiError, errors } from "../../errors.ts";
import { checkedAddressOf } from "../../net/public-address.ts";
import { repoRoot } from "../../repo-root.ts";
import {
  environmentsOf,
  importTemplate,
  isEgg,
  type Template,
  templateErrors,
  type VariableValue,
} from "../../templates/index.ts";
import { fetchRepo } from "./repo-fetch.ts";
import { type RepoTemplate, readRepo } from "./repo-reader.ts";
import { localeOf, localize, readStarterTexts, type StarterTexts } from "./starter-texts.ts";
import { fetchTemplateText } from "./template-import.ts";

export const localRepoId = 0;
/** The starter repository's id: below every stored repository's (they count up from 1). */
export const starterRepoId = -1;
/** Where the starter templates ship: beside the server code, in the upstream repository layout. */
export const starterDir = path.join(repoRoot, "starter-templates");
/** A remote repository is fetched again at most this often. */
export const refreshAfterMs = 5 * 60_000;
/** A repository that could not be fetched is not tried again for this long, unless asked to (Retry). */
export const retryFailedAfterMs = 2 * 60_000;

const namePattern = /^[A-Za-z0-9._-]{1,100}$/;
/** Why a non-administrator's repository could not be fetched, whatever the cause. */
const unreachable = "it could not be reached";
const invalidUrl = (why: string) =>
  new ApiError(400, "ErrFieldInvalid", `\${field} ${why}`, { field: "url" });

/** A folder on the panel's host given as `/path` or `file:///path`; undefined for anything else. */
export function localFolderOf(url: string): string | undefined {
  if (url.startsWith("/")) return path.resolve(url);
  if (!url.startsWith("file:")) return undefined;
  try {
    return path.resolve(fileURLToPath(url));
  } catch {
    return undefined;
  }
}
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
  private readonly fetched = new Map<number, { at: number; templates: RepoTemplate[] }>();
  private readonly inFlight = new Map<number, Promise<RepoTemplate[]>>();
  private readonly failed = new Map<number, { at: number; reason: string }>();
  private starter: Promise<RepoTemplate[]> | undefined;
  private starterTexts: Map<string, StarterTexts> | undefined;

  constructor(
    private readonly db: Db,
    private readonly cacheDir: string,
    private readonly starterFolder = starterDir,
  ) {}

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
    if (opts.retry) this.failed.delete(repoId);
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
    // Reading a folder on the panel's host is for administrators only: it reads the host's disk.
    const url = await this.checkedSource(input.url.trim(), opts.byAdmin);
    // Anyone else's is fetched from public addresses only (repo-fetch.ts): one that is not is
    // refused now, in the same words as one that does not resolve.
    if (
      !opts.byAdmin &&
      !(await checkedAddressOf(new URL(url)).then(
        () => true,
        () => false,
      ))
    )
      throw invalidUrl("cannot be reached");
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

  /** The URL to store: an http(s) URL as given, or a host folder that exists as a file: URL. */
  private async checkedSource(given: string, mayReadHostFolders: boolean): Promise<string> {
    const folder = localFolderOf(given);
    if (folder !== undefined) {
      if (!mayReadHostFolders) throw errors.missingScope("admin");
      const stat = await fs.stat(folder).catch(() => undefined);
      if (!stat?.isDirectory()) throw invalidUrl("is not a folder on the panel's host");
      return pathToFileURL(folder).toString();
    }
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw invalidUrl("must be an http(s) URL or a folder on the panel's host");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw invalidUrl("must be an http(s) URL or a folder on the panel's host");
    return url.toString();
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
    const { environment, data, ...code } = withoutPanelFields(definition);
    const wanted = canonicalJson(code);
    for await (const template of this.vouchedTemplates()) {
      const { environment: _e, data: _d, ...templateCode } = withoutPanelFields(template);
      if (canonicalJson(templateCode) !== wanted) continue;
      const chosen =
        environment === undefined
          ? template.environment
          : environmentsOf(template).find((offered) => canonicalJson(offered) === canonicalJson(environment));
      const values = valuesOf(data, template);
      if (chosen === undefined || values === undefined) continue;
      // An egg's hidden variables (user_viewable: false) keep the template's values: they are the
      // administrators' to set (hidden-variables.ts), from the server's creation on.
      const hidden = template.egg?.hidden ?? [];
      if (
        hidden.some(
          (key) => key in values && canonicalJson(values[key]) !== canonicalJson(template.data[key]?.value),
        )
      )
        continue;
      const variables = Object.fromEntries(
        Object.entries(template.data).map(([key, variable]) => [
          key,
          key in values ? { ...variable, value: values[key] } : variable,
        ]),
      );
      return {
        ...(templateCode as Omit<Template, "environment" | "data">),
        environment: chosen,
        data: variables,
      };
    }
    return undefined;
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
    this.fetched.delete(repoId);
    await fs.rm(this.repoDir(repoId), { recursive: true, force: true });
  }

  private repoDir(repoId: number): string {
    return path.join(this.cacheDir, String(repoId));
  }

  /** A read-only repository's templates: the starter ones (read once), or a fetched one's. */
  private read(repoId: number): Promise<RepoTemplate[]> {
    if (repoId !== starterRepoId) return this.remote(repoId);
    this.starter ??= readRepo(this.starterFolder).then(({ templates, problems }) => {
      // A starter template that does not import is our bug, and a test catches it; never hide it.
      if (problems.length) throw new Error(`starter templates: ${problems.join("; ")}`);
      return templates;
    });
    return this.starter;
  }

  /** The repository's templates, fetched when missing or older than refreshAfterMs; one fetch at a time per repo. */
  private async remote(repoId: number): Promise<RepoTemplate[]> {
    const cached = this.fetched.get(repoId);
    if (cached && Date.now() - cached.at < refreshAfterMs) return cached.templates;
    // A source that just failed is not asked again on every page: the same answer, at once.
    const failure = this.failed.get(repoId);
    if (failure && Date.now() - failure.at < retryFailedAfterMs) {
      if (cached) return cached.templates;
      throw await this.unavailable(repoId, failure);
    }
    const running = this.inFlight.get(repoId);
    if (running) return running;
    const work = this.refresh(repoId, cached?.templates).finally(() => this.inFlight.delete(repoId));
    this.inFlight.set(repoId, work);
    return work;
  }

  private async refresh(repoId: number, stale: RepoTemplate[] | undefined): Promise<RepoTemplate[]> {
    const row = await this.db
      .selectFrom("template_repos")
      .selectAll()
      .where("id", "=", repoId)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, "ErrRepoNotFound", "no such repository");
    const folder = localFolderOf(row.url);
    try {
      // A host folder is read where it is, every time: what the administrator edits there shows at once.
      if (folder !== undefined) return await this.readFolder(folder);
      await fetchRepo(row.url, row.branch, this.repoDir(repoId), { publicOnly: row.by_admin !== 1 });
    } catch (err) {
      // A non-administrator's repository fails in one word: the reason would tell what answers
      // (or not) at an address they chose.
      const reason = row.by_admin === 1 ? (err as Error).message : unreachable;
      const failure = { at: Date.now(), reason };
      this.failed.set(repoId, failure);
      // A copy fetched before still serves while the source is away.
      if (stale) return stale;
      throw await this.unavailable(repoId, failure, row.name);
    }
    this.failed.delete(repoId);
    const { templates } = await readRepo(this.repoDir(repoId));
    this.fetched.set(repoId, { at: Date.now(), templates });
    return templates;
  }

  private async readFolder(folder: string): Promise<RepoTemplate[]> {
    const stat = await fs.stat(folder).catch(() => undefined);
    if (!stat?.isDirectory()) throw new Error(`${folder} is not a folder`);
    return (await readRepo(folder)).templates;
  }

  /** ErrRepoUnavailable with the reason and when the source was last tried (the screen offers Retry). */
  private async unavailable(
    repoId: number,
    failure: { at: number; reason: string },
    name?: string,
  ): Promise<ApiError> {
    const repo =
      name ??
      (await this.db.selectFrom("template_repos").select("name").where("id", "=", repoId).executeTakeFirst())
        ?.name ??
      String(repoId);
    return new ApiError(502, "ErrRepoUnavailable", "repository ${repo} could not be read: ${reason}", {
      repo,
      reason: failure.reason,
      triedAt: new Date(failure.at).toISOString(),
    });
  }
}

/** A template fetched for server creation carries the panel's own fields; they are not part of it. */
function stripPanelFields(body: unknown): unknown {
  if (!body || typeof body !== "object") return body;
  const { name: _n, readme: _r, node: _no, users: _u, id: _i, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** A definition or template without the panel's fields and the limits (administrators' alone, set apart). */
function withoutPanelFields(body: object): Record<string, unknown> {
  const { limits: _l, ...rest } = stripPanelFields(body) as Record<string, unknown>;
  return rest;
}

/** JSON with every object's keys in order: two documents compare equal whatever order they were written in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * A definition's variable values (`{name: value}` or `{name: {value, …}}`, as either client sends
 * them), all of them the template's own variables and plain values; undefined otherwise.
 */
function valuesOf(data: unknown, template: Template): Record<string, VariableValue> | undefined {
  if (data === undefined) return {};
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const values: Record<string, VariableValue> = {};
  for (const [key, given] of Object.entries(data)) {
    if (!Object.hasOwn(template.data, key)) return undefined;
    const value = given && typeof given === "object" && !Array.isArray(given) ? given.value : given;
    if (value !== null && !["string", "number", "boolean"].includes(typeof value)) return undefined;
    values[key] = value ?? "";
  }
  return values;
}
