import { transformAsync } from "@babel/core";
import type { Plugin } from "vite";

// The Lingui macro needs a Babel pass; we run it ourselves (no @vitejs/plugin-react) and let
// Vite's oxc do JSX. The signals transform is only for the real React build.
export function babelMacros(withSignalsTransform: boolean): Plugin {
  const plugins: unknown[] = ["@lingui/babel-plugin-lingui-macro"];
  if (withSignalsTransform) plugins.push(["module:@preact/signals-react-transform", { mode: "auto" }]);
  return {
    name: "outpost-babel-macros",
    enforce: "pre",
    async transform(code, id) {
      if (id.includes("node_modules") || !/\/src\/.*\.[jt]sx?$/.test(id.split("?")[0])) return;
      if (!withSignalsTransform && !code.includes("@lingui/")) return;
      const out = await transformAsync(code, {
        filename: id,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: ["jsx", "typescript"] },
        plugins: plugins as never,
      });
      return out?.code ? { code: out.code, map: out.map } : undefined;
    },
  };
}
