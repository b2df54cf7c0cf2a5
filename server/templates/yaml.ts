import type * as JsYaml from "js-yaml";

/**
 * js-yaml, loaded on first use: an idle panel reads no YAML (templates are
 * JSON; YAML comes with a Pelican egg, a template repository or an egg's
 * YAML config file). The readers that use it stay synchronous (the web app's
 * paste handler needs an answer at once), so whoever may meet YAML awaits
 * loadYaml() before calling them.
 */
let library: typeof JsYaml | undefined;
let loading: Promise<void> | undefined;

export function loadYaml(): Promise<void> {
  loading ??= import("js-yaml").then(
    (module) => {
      // CommonJS in Node (the functions on `default` too), ES module in the browser.
      library = ((module as { default?: typeof JsYaml }).default ?? module) as typeof JsYaml;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Thrown when YAML is read before loadYaml() finished: a caller's mistake, never a document's. */
export class YamlNotLoaded extends Error {}

export function yaml(): typeof JsYaml {
  if (!library) throw new YamlNotLoaded("js-yaml is not loaded: await loadYaml() before reading YAML");
  return library;
}
