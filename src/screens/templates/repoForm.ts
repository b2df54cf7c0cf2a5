import type { RepoFields } from "../../api/templates";

// The add-repository form and the panel's rules for it, checked before sending.

export type RepoFieldName = "name" | "url" | "branch";
export type RepoFormValues = Record<RepoFieldName, string>;

export interface RepoProblem {
  code: string;
  values?: Record<string, unknown>;
}
export type RepoProblems = Partial<Record<RepoFieldName, RepoProblem>>;

export const emptyRepoForm = (): RepoFormValues => ({ name: "", url: "", branch: "" });

export function repoBody(v: RepoFormValues): RepoFields {
  const branch = v.branch.trim();
  return { name: v.name.trim(), url: v.url.trim(), ...(branch ? { branch } : {}) };
}

/** A folder on the panel's host, as the panel takes it: `/path` or `file:///path`. */
export function isHostFolder(s: string): boolean {
  return s.startsWith("/") || s.startsWith("file:///");
}

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

export function checkRepoForm(v: RepoFormValues): RepoProblems {
  const body = repoBody(v);
  const out: RepoProblems = {};
  if (!body.name) out.name = { code: "ErrFieldRequired" };
  else if (body.name.length > 100) out.name = { code: "ErrFieldLength", values: { min: 1, max: 100 } };
  else if (body.name.toLowerCase() === "local")
    out.name = { code: "ErrRepoExists", values: { name: body.name } };
  if (!body.url) out.url = { code: "ErrFieldRequired" };
  else if (!isHttpUrl(body.url) && !isHostFolder(body.url)) out.url = { code: "ErrFieldInvalid" };
  if ((body.branch ?? "").length > 200) out.branch = { code: "ErrFieldLength", values: { min: 0, max: 200 } };
  return out;
}

/** Which field a refusal from the panel is about. */
export function repoFieldOfError(
  code: string,
  metadata?: Record<string, unknown>,
): RepoFieldName | undefined {
  if (code === "ErrRepoExists") return "name";
  const f = metadata?.field;
  return f === "name" || f === "url" || f === "branch" ? f : undefined;
}
