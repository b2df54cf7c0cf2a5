import path from "node:path";
import type { Plugin } from "vite";

type Chunk = { type: "chunk"; name: string; fileName: string; code: string; imports: string[] };
type Asset = { type: "asset"; fileName: string; source: string | Uint8Array };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `a as b, c` → `{a:b,c:c}`: an import or export list as a destructuring pattern. */
function pattern(list: string, flip = false): string {
  const pairs = list
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const [from, to = from] = p.split(/\s+as\s+/);
      return flip ? `${to}:${from}` : `${from}:${to}`;
    });
  return `{${pairs.join(",")}}`;
}

/**
 * Rolldown keeps its runtime helpers (under 1 KB: namespace objects, CommonJS interop) in a chunk of
 * their own once manual chunk groups are in use, one more request on every first load. This folds
 * that chunk into `host` (the first-load chunk, which every other chunk already imports): its code
 * goes first in the host, and the chunks that imported it take the helpers from the host instead.
 * Runs after Vite has written index.html and the preload lists, and fixes those too.
 */
export function foldRuntimeInto(host: string): Plugin {
  return {
    name: "outpost-fold-runtime",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const files = Object.values(bundle) as (Chunk | Asset)[];
      const chunks = files.filter((f): f is Chunk => f.type === "chunk");
      const runtime = chunks.find((c) => c.name === "rolldown-runtime");
      const target = chunks.find((c) => c.name === host);
      if (!runtime || !target) return;
      const exportList = /export\s*\{([^}]*)\};?\s*$/.exec(runtime.code);
      if (!exportList) return this.error("the runtime chunk does not end with one export list");
      const hold = "__rolldownRuntime$";
      const body = runtime.code.slice(0, exportList.index);
      const folded = `var ${hold}=(()=>{${body};return${pattern(exportList[1], true)}})();`;
      const name = escapeRegExp(path.posix.basename(runtime.fileName));
      const named = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']\\./${name}["'];?`, "g");
      const bare = new RegExp(`import\\s*["']\\./${name}["'];?`, "g");
      const hostFile = path.posix.basename(target.fileName);
      for (const chunk of chunks) {
        if (chunk === runtime) continue;
        const fromHost = chunk === target ? "" : `import{${hold}}from"./${hostFile}";`;
        chunk.code = chunk.code
          .replace(named, (_m, list: string) => `${fromHost}var${pattern(list)}=${hold};`)
          .replace(bare, "")
          // Vite's preload lists name files by their path in the build.
          .replaceAll(`"${runtime.fileName}"`, `"${target.fileName}"`);
        chunk.imports = [
          ...new Set(chunk.imports.map((f) => (f === runtime.fileName ? target.fileName : f))),
        ].filter((f) => f !== chunk.fileName);
      }
      target.code = `${folded}${target.code}export{${hold}};`;
      for (const file of files) {
        if (file.type !== "asset" || !file.fileName.endsWith(".html") || typeof file.source !== "string")
          continue;
        file.source = file.source.replace(
          new RegExp(`[ \\t]*<(script|link)[^>]*/${name}"[^>]*>(</script>)?\\n?`, "g"),
          "",
        );
      }
      delete bundle[runtime.fileName];
    },
  };
}
