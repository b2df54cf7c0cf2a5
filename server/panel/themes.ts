import fs from "node:fs";
import path from "node:path";

/** The built-in theme: its styles are part of the web app, and it is listed even with no archive. */
export const BUILT_IN_THEME = "Outpost";
/** A theme's archive name: letters, digits, space, dot, dash, underscore; never a path. */
const THEME_NAME = /^[\w][\w .-]{0,99}$/;

/**
 * Theme archives (reference §10.5): those shipped with the web app (`<webDir>/theme/*.tar`, made
 * at build time) and those an administrator drops into `<dataDir>/themes/`. A dropped archive of
 * the same name replaces the shipped one. Folders are read on each call, so a new file shows
 * without a restart.
 */
export class ThemeArchives {
  constructor(private readonly dirs: { shipped: string; dropped: string }) {}

  /** Every theme name, sorted; the built-in theme is always among them. */
  async list(): Promise<string[]> {
    const names = new Set([BUILT_IN_THEME]);
    for (const dir of [this.dirs.shipped, this.dirs.dropped]) {
      for (const file of await fs.promises.readdir(dir).catch(() => [] as string[])) {
        const name = file.slice(0, -4);
        if (file.endsWith(".tar") && THEME_NAME.test(name)) names.add(name);
      }
    }
    return [...names].sort();
  }

  /** The file of a theme's archive, or undefined when there is none by that name. */
  async file(name: string): Promise<{ path: string; size: number } | undefined> {
    if (!THEME_NAME.test(name)) return undefined;
    for (const dir of [this.dirs.dropped, this.dirs.shipped]) {
      const file = path.join(dir, `${name}.tar`);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat?.isFile()) return { path: file, size: stat.size };
    }
    return undefined;
  }
}
