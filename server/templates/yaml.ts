import type * as JsYaml from "js-yaml";
import { lazyLibrary } from "./lazy-library.ts";

/** Thrown when YAML is read before loadYaml() finished: a caller's mistake, never a document's. */
export class YamlNotLoaded extends Error {}

/**
 * js-yaml, loaded on first use: an idle panel reads no YAML (templates are
 * JSON; YAML comes with a Pelican egg, a template repository or an egg's
 * YAML config file). The readers that use it stay synchronous (the web app's
 * paste handler needs an answer at once), so whoever may meet YAML awaits
 * loadYaml() before calling them.
 */
const jsYaml = lazyLibrary(
  // CommonJS in Node (the functions on `default` too), ES module in the browser.
  () =>
    import("js-yaml").then(
      (module) => ((module as { default?: typeof JsYaml }).default ?? module) as typeof JsYaml,
    ),
  () => new YamlNotLoaded("js-yaml is not loaded: await loadYaml() before reading YAML"),
);

export async function loadYaml(): Promise<void> {
  await jsYaml.load();
}

export function yaml(): typeof JsYaml {
  return jsYaml.get();
}
