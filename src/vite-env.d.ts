/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}

// vite.config.ts calls Babel for the Lingui macro; only this much of its API is used.
declare module "@babel/core" {
  export function transformAsync(
    code: string,
    options: Record<string, unknown>,
  ): Promise<{ code?: string | null; map?: import("vite").Rollup.SourceMapInput } | null>;
}

/** package.json's version, set by the build (vite.config.ts). */
declare const __OUTPOST_VERSION__: string;
