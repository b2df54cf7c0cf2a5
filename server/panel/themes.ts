import fs from "node:fs";
import path from "node:path";

/** The built-in theme: its styles are part of the web app, and it is listed even with no archive. */
export const BUILT_IN_THEME = "Outpost";
/** A theme's archive name: letters, digits, space, dot, dash, underscore; never a path. */
const THEME_NAME = /^[\w][\w .-]{0,99}$/;

/**
 * Theme archives (reference §10.5): those shipped with the web app (`<webDir>/theme/*.tar`, made
 * at build time) and those an administrator drops into `<dataDir>/themes/`. A dropped archive of
 * the same name replaces the shipped one. A new file shows without a restart: each call looks at
 * the folders' modification times (a stat, every `GET /api/config` asks) and reads a folder again
 * only when its time has moved since it was last read.
 */
export class ThemeArchives {
  private readonly read = new Map<string, { stamp: string; names: string[] }>();

  constructor(private readonly dirs: { shipped: string; dropped: string }) {}

  /** Every theme name, sorted; the built-in theme is always among them. */
  async list(): Promise<string[]> {
    const names = new Set([BUILT_IN_THEME]);
    for (const dir of [this.dirs.shipped, this.dirs.dropped])
      for (const name of await this.namesIn(dir)) names.add(name);
    return [...names].sort();
  }

  /** The theme names of one folder, read again when its modification time (or the folder) changed. */
  private async namesIn(dir: string): Promise<string[]> {
    // A synchronous stat of a folder costs less than the thread-pool hop of an asynchronous one.
    const stat = fs.statSync(dir, { throwIfNoEntry: false, bigint: true });
    const stamp = stat ? `${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}` : "none";
    const kept = this.read.get(dir);
    if (kept?.stamp === stamp) return kept.names;
    const names: string[] = [];
    for (const file of await fs.promises.readdir(dir).catch(() => [] as string[])) {
      const name = file.slice(0, -4);
      if (file.endsWith(".tar") && THEME_NAME.test(name)) names.push(name);
    }
    // Kept only if the folder did not change while it was read.
    const after = fs.statSync(dir, { throwIfNoEntry: false, bigint: true });
    if ((after ? `${after.ino}:${after.mtimeNs}:${after.ctimeNs}` : "none") === stamp)
      this.read.set(dir, { stamp, names });
    return names;
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
