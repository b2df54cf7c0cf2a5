import { useLoad } from "../../app/useLoad";

// The template module (server/templates: pure, browser-safe) validates the editor's document the
// way the panel will when it is saved. It carries a CEL library, so it is fetched only when an
// editor opens, never with the list screen or the login page.

export type TemplateModule = typeof import("../../../server/templates/index.ts");

let loading: Promise<TemplateModule> | undefined;

export function loadTemplateModule(): Promise<TemplateModule> {
  // js-yaml too, which the module loads on first use: a pasted or dropped egg may be YAML.
  loading ??= import("../../../server/templates/index.ts")
    .then(async (mod) => {
      await mod.loadYaml();
      return mod;
    })
    .catch((err) => {
      loading = undefined; // a failed chunk load may work next time
      throw err;
    });
  return loading;
}

/** The module once loaded; undefined meanwhile (or when it failed: the panel still checks on save). */
export function useTemplateModule(): TemplateModule | undefined {
  return useLoad(loadTemplateModule, []).data;
}
