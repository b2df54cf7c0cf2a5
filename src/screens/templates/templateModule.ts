import { useLoad } from "../../app/useLoad";

// The template module (server/templates: pure, browser-safe) validates the editor's document the
// way the panel will when it is saved. It carries a CEL library, so it is fetched only when an
// editor opens, never with the list screen or the login page.

export type TemplateModule = typeof import("../../../server/templates/index.ts");

let loading: Promise<TemplateModule> | undefined;

export function loadTemplateModule(): Promise<TemplateModule> {
  loading ??= import("../../../server/templates/index.ts").catch((err) => {
    loading = undefined; // a failed chunk load may work next time
    throw err;
  });
  return loading;
}

/** The module once loaded; undefined meanwhile (or when it failed: the panel still checks on save). */
export function useTemplateModule(): TemplateModule | undefined {
  return useLoad(loadTemplateModule, []).data;
}
