import { readFileSync } from "node:fs";
import { lingui } from "@lingui/vite-plugin";
import type { ChunkingContext } from "rolldown";
import { defineConfig, type LogLevel, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { babelMacros } from "./scripts/vite-babel-macros.ts";
import { foldRuntimeInto } from "./scripts/vite-fold-runtime.ts";
import { themeArchives } from "./scripts/vite-theme-archives.ts";

// Two builds from the same React code:
// - default: React aliased to preact/compat and signals-react to @preact/signals (what users get);
// - `--mode react`: real React + @preact/signals-react with its Babel transform (a guard that
//   the code stays plain React).

/**
 * Names the chunk of the first load: every module the entry (src/main.tsx) or the sign-in screen
 * imports, directly or through other static imports. Other modules keep Rolldown's own chunks.
 */
function firstLoadChunk() {
  const roots = /\/src\/(main\.tsx|screens\/auth\/Login\.tsx)$/;
  // The service worker's registration (workbox-window) comes after first paint, in its own chunk.
  const registration = /\/src\/app\/registerSw\.ts$|\/node_modules\/workbox-window\//;
  const seen = new Map<string, boolean>();
  const reached = (id: string, ctx: ChunkingContext, path: Set<string>): boolean => {
    const known = seen.get(id);
    if (known !== undefined) return known;
    if (roots.test(id)) return true;
    if (path.has(id)) return false;
    path.add(id);
    const info = ctx.getModuleInfo(id);
    const yes = !!info?.importers.some((by) => reached(by, ctx, path));
    path.delete(id);
    seen.set(id, yes);
    return yes;
  };
  // What screens share (widgets, API modules, offline helpers, the global search) in one more chunk,
  // rather than a file each: a screen's first visit then fetches its own chunk and this one. The
  // API client's HTTP library (src/api/http.ts: ofetch, ufo, destr) is in it too: the client loads
  // it on its first call, which a signed-in page makes beside that chunk and a sign-in just before.
  const shared =
    /\/src\/(components|api|offline|state|app|theme)\/|\/src\/screens\/[^/]+\.tsx?$|\/node_modules\/(ofetch|ufo|destr)\//;
  return (id: string, ctx: ChunkingContext) =>
    registration.test(id)
      ? "register-sw"
      : reached(id, ctx, new Set())
        ? "app"
        : shared.test(id)
          ? "shared"
          : null;
}

const preactAlias = {
  "react-dom/test-utils": "preact/test-utils",
  "react-dom/client": "preact/compat/client",
  "react-dom": "preact/compat",
  "react/jsx-runtime": "preact/jsx-runtime",
  "react/jsx-dev-runtime": "preact/jsx-dev-runtime",
  react: "preact/compat",
  "@preact/signals-react": "@preact/signals",
  // wouter's shim falls back to React's own hook anyway; compat has it built in.
  "use-sync-external-store/shim/index.js": "preact/compat",
};

// Same-origin dev: proxy API paths to a running panel, but let the SPA serve page loads of
// /auth/login etc. (those paths are both screens and API POST endpoints).
const devTarget = process.env.OUTPOST_DEV_API ?? "http://127.0.0.1:8080";
const bypassPages = (req: { method?: string; headers: Record<string, unknown> }) =>
  req.method === "GET" && String(req.headers.accept ?? "").includes("text/html") ? "/index.html" : undefined;

/** Warnings and errors only; the build's progress and file list are not news on every start. */
function quietBuild(): Plugin {
  return { name: "outpost-quiet-build", config: () => ({ logLevel: "warn" }) };
}

/** One line when a build is done: where it went and how long it took. */
function oneLineReport(outDir: string): Plugin {
  let started = 0;
  return {
    name: "outpost-one-line-report",
    apply: "build",
    buildStart() {
      started = performance.now();
    },
    closeBundle() {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`web app built in ${seconds} s (${outDir}/)`);
    },
  };
}

export default defineConfig(({ mode }) => {
  const realReact = mode === "react";
  const inTests = Boolean(process.env.VITEST);
  const outDir = realReact ? "dist-react" : "dist";
  const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
  return {
    // The version the sidebar shows (the web app is built and served with the panel of that version).
    define: { __OUTPOST_VERSION__: JSON.stringify(version) },
    // OUTPOST_BUILD_LOG=info shows the bundler's full report again.
    logLevel: (process.env.OUTPOST_BUILD_LOG as LogLevel | undefined) ?? "warn",
    resolve: { alias: realReact || inTests ? {} : preactAlias },
    plugins: [
      babelMacros(realReact),
      oneLineReport(outDir),
      lingui(),
      themeArchives("src/theme/archives"),
      // Rolldown's runtime helpers into the first-load chunk: one file fewer on every first load.
      foldRuntimeInto("app"),
      !inTests &&
        VitePWA({
          // Our own service worker (sw/sw.ts): the precache list is injected into it at build.
          strategies: "injectManifest",
          srcDir: "sw",
          filename: "sw.ts",
          // A new version waits until the user says so (the app shows a Reload toast).
          registerType: "prompt",
          injectRegister: false,
          // The panel serves the manifest itself (server/api/web-manifest.ts): it names the app
          // after the company name setting.
          manifest: false,
          injectManifest: {
            globPatterns: ["**/*.{js,css,html,svg,png}"],
            // A classic script (it is registered without type: module) built as one file: the
            // "es" format asked the bundler for the deprecated inlineDynamicImports.
            rollupFormat: "iife",
            // The worker's own build says only what needs attention, as the app's does.
            buildPlugins: { vite: [quietBuild()] },
          },
        }),
    ],
    build: {
      outDir,
      manifest: true,
      modulePreload: { polyfill: false },
      target: "es2022",
      rollupOptions: {
        preserveEntrySignatures: false,
        output: {
          // First load in few requests (issue 11: the login page in ≤ 4 JavaScript files): everything
          // the entry imports statically is one chunk, and the sign-in screen (lazy in the routes
          // table, but the page most first visits land on) joins it. Screens and the per-locale
          // catalogs stay split, so only the active locale's strings are fetched. (Preact, its JSX
          // runtime and signals, which every page needs, are part of that first-load chunk.)
          codeSplitting: { groups: [{ name: firstLoadChunk(), debugName: "first-load" }] },
        },
        // The timing report is for working on the build itself, not news on every `npm start`.
        checks: { bundlerTimings: false },
        // Lingui's React bindings start with "use client", a marker for server-rendering
        // frameworks; this app renders only in the browser, so dropping it changes nothing.
        onwarn(warning, warn) {
          if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes("use client")) return;
          warn(warning);
        },
      },
    },
    server: {
      proxy: Object.fromEntries(
        ["/api", "/auth", "/oauth2", "/theme"].map((p) => [
          p,
          { target: devTarget, changeOrigin: false, ws: p === "/api", bypass: bypassPages },
        ]),
      ),
    },
  };
});
