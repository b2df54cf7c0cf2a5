import fs from "node:fs";
import path from "node:path";
import { createTar } from "nanotar";
import type { Plugin } from "vite";

// The theme archives the panel ships (reference §10.5): each folder of src/theme/archives/ becomes
// theme/<folder>.tar in the build, holding its manifest.json, theme.css and any other files.
// Fixed file times, so an unchanged theme gives the same bytes.
export function themeArchives(sourceDir: string): Plugin {
  return {
    name: "outpost-theme-archives",
    apply: "build",
    generateBundle() {
      for (const theme of fs.readdirSync(sourceDir, { withFileTypes: true })) {
        if (!theme.isDirectory()) continue;
        const dir = path.join(sourceDir, theme.name);
        const files = fs
          .readdirSync(dir)
          .sort()
          .map((name) => ({ name, data: fs.readFileSync(path.join(dir, name)) }));
        if (!files.some((f) => f.name === "manifest.json"))
          this.error(`theme ${theme.name} has no manifest.json`);
        this.emitFile({
          type: "asset",
          fileName: `theme/${theme.name}.tar`,
          source: createTar(files, { attrs: { mtime: 0, mode: "644" } }),
        });
      }
    },
  };
}
