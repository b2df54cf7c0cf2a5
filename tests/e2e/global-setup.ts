import fs from "node:fs";
import path from "node:path";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/**
 * Starts one panel per build. Playwright evaluates the config before this
 * runs, so the URLs reach the projects through the environment the workers
 * inherit (see tests/e2e/panels.ts).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // E2E_DIST / E2E_DIST_REACT point at other build folders (a private `vite build --outDir`).
  const builds = {
    preact: process.env.E2E_DIST || "dist",
    react: process.env.E2E_DIST_REACT || "dist-react",
  } as const;
  // Every build is checked before any panel starts: a refusal after the first start would leave it running.
  for (const dir of Object.values(builds)) {
    if (!fs.existsSync(path.join(repoRoot, dir, "index.html"))) {
      throw new Error(`${dir}/ is not built: run "npm run build" and "npm run build:react" first`);
    }
  }
  const panels: PanelProcess[] = [];
  try {
    for (const [name, dir] of Object.entries(builds)) {
      // Resource history sampled every 2 s, so its charts have points within a test.
      const panel = await startPanel({
        webDir: path.resolve(repoRoot, dir),
        env: { OUTPOST_STATS_SAMPLE_SECONDS: "2" },
      });
      panels.push(panel);
      process.env[`E2E_${name.toUpperCase()}_URL`] = panel.url;
      process.env[`E2E_${name.toUpperCase()}_DATA`] = panel.dataDir;
    }
  } catch (error) {
    for (const panel of panels) await panel.stop();
    throw error;
  }
  return async () => {
    for (const panel of panels) await panel.stop();
  };
}
