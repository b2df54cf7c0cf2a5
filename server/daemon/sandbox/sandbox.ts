import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import { sandboxErrors } from "./errors.ts";
import { hasGlobMeta, segmentMatcher } from "./glob.ts";
import { type AbsolutePolicy, insideOf, lexicalRelative } from "./lexical.ts";
import { makeFolders } from "./make-folders.ts";
import {
  createFileSync,
  type OpenedFolder,
  openFolder,
  openRead,
  openWrite,
  type Roots,
  type WriteOptions,
} from "./open.ts";
import { type Location, walkAsync, walkSync } from "./walk.ts";

export interface ResolveOptions {
  /** How a leading `/` is read (default: root-relative). */
  absolute?: AbsolutePolicy;
  /** Follow a symlink in the last component (default true); false acts on the link itself. */
  followFinal?: boolean;
}

/**
 * One server's folder, and the only way the daemon turns a user's or a
 * template's path into a place on disk (DESIGN.md, issue 5 "One sandbox").
 *
 * A path is first read as text (lexical.ts: NUL, `..` out of the root,
 * absolute forms), then walked component by component with every symlink
 * followed inside the root (walk.ts), then opened with the checks of
 * open.ts. Every refusal is 400 ErrIllegalFileAccess. Nothing here decodes
 * URL escapes: HTTP callers decode once with decodeRequestPath first.
 */
export class Sandbox {
  readonly root: string;
  private realRoot?: string;
  /** The folder's owner when new entries go to it; false when they stay the daemon's. */
  private owner?: { uid: number; gid: number } | false;
  /**
   * Set on the sandbox a server's users reach: throws while their changes must wait (a move to
   * another node holds the server). Every change below asks it first, so no route has to.
   */
  changesRefused?: () => void;

  /** Throws when changes are refused now (see changesRefused); for writes through a handle opened before. */
  checkChangeable(): void {
    this.changesRefused?.();
  }

  /** `root` must be an absolute path to a folder that exists when the sandbox is first used. */
  constructor(root: string) {
    if (!path.isAbsolute(root)) throw new Error(`sandbox root must be absolute: ${root}`);
    this.root = path.resolve(root);
  }

  /** The normalised root-relative form of a path, from its text alone ("" is the root). */
  relative(userPath: string, options: ResolveOptions = {}): string {
    const roots = this.realRoot ? [this.root, this.realRoot] : [this.root];
    return lexicalRelative(roots, userPath, options.absolute ?? "root-relative");
  }

  /** Where a path really is, symlinks followed inside the root; refuses every way out. */
  async resolve(userPath: string, options: ResolveOptions = {}): Promise<Location> {
    const roots = await this.roots();
    const relative = this.relative(userPath, options);
    return walkAsync(roots, relative, options.followFinal ?? true, userPath);
  }

  /** resolve() without waiting, for CEL's file_exists (conditions are synchronous). */
  resolveSync(userPath: string, options: ResolveOptions = {}): Location {
    const roots = this.rootsSync();
    const relative = this.relative(userPath, options);
    return walkSync(roots, relative, options.followFinal ?? true, userPath);
  }

  /** file_exists(): a refused path does not exist. */
  existsSync(userPath: string): boolean {
    try {
      return this.resolveSync(userPath).stats !== undefined;
    } catch {
      return false;
    }
  }

  /** stat of an existing path (symlinks followed inside the root); ErrFileNotFound otherwise. */
  async stat(userPath: string): Promise<fs.Stats> {
    const location = await this.resolve(userPath);
    if (!location.stats) throw sandboxErrors.notFound(userPath);
    return location.stats;
  }

  async openRead(userPath: string): Promise<FileHandle> {
    return this.openResolvedRead(await this.resolve(userPath), userPath);
  }

  /** Opens for writing, creating the file (not its folders) when missing; see WriteOptions. */
  async openWrite(userPath: string, options: WriteOptions = {}): Promise<FileHandle> {
    return this.openResolvedWrite(await this.resolve(userPath), userPath, options);
  }

  /** Opens a place resolve() found, checking again at open time (see open.ts for the race this closes). */
  async openResolvedRead(location: Location, shown = location.relative): Promise<FileHandle> {
    return openRead(location, await this.roots(), shown);
  }

  /** Opens a folder resolve() found, for reading its entries (see open.ts openFolder). */
  async openResolvedFolder(location: Location, shown = location.relative): Promise<OpenedFolder> {
    return openFolder(location, await this.roots(), shown);
  }

  async openResolvedWrite(
    location: Location,
    shown = location.relative,
    options: WriteOptions = {},
  ): Promise<FileHandle> {
    this.checkChangeable();
    return openWrite(location, await this.roots(), shown, options);
  }

  /**
   * Creates a file that is not there yet with its whole (small) content, its
   * folder existing, without leaving the thread (open.ts createFileSync);
   * false, nothing written, when the name is taken or this system cannot
   * check the place that way: write it through openWrite then.
   */
  createNewFileSync(userPath: string, data: Uint8Array, mode: number, modified?: Date): boolean {
    this.checkChangeable();
    const location = this.resolveSync(userPath, { followFinal: false });
    if (location.stats) return false;
    return createFileSync(location, this.rootsSync(), userPath, data, mode, modified);
  }

  /** Writes a whole (small) text or buffer, creating parent folders. */
  async writeFile(userPath: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
    this.checkChangeable();
    await this.mkdirp(path.posix.dirname(this.relative(userPath)));
    const handle = await this.openWrite(userPath, options);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  }

  /**
   * Makes a folder and any missing parents (mkdir -p): one walk to the
   * deepest folder that exists, then each missing one made through its
   * parent's descriptor (make-folders.ts), so the work grows with the depth,
   * not its cube. `signal` stops it between two folders.
   */
  async mkdirp(userPath: string, signal?: AbortSignal): Promise<Location> {
    this.checkChangeable();
    const location = await this.resolve(userPath);
    if (location.stats) {
      if (location.stats.isDirectory()) return location;
      throw sandboxErrors.exists(userPath, "exists and is not a folder");
    }
    const parts = location.relative.split("/");
    const have = location.existing ?? parts.length;
    const base = await this.resolve(parts.slice(0, have).join("/"));
    if (!base.stats?.isDirectory())
      throw sandboxErrors.exists(userPath, "has a file where a folder should be");
    await makeFolders(base, parts.slice(have), await this.roots(), userPath, signal);
    const made = await this.resolve(userPath);
    if (!made.stats?.isDirectory())
      throw sandboxErrors.illegal(userPath, "kept changing while its folders were made");
    return made;
  }

  /** Renames within the root; the source's last component is moved as it is (a link stays a link). */
  async rename(from: string, to: string): Promise<void> {
    this.checkChangeable();
    const source = await this.resolve(from, { followFinal: false });
    if (!source.stats) throw sandboxErrors.notFound(from);
    if (source.relative === "") throw sandboxErrors.illegal(from, "is the server folder itself");
    const target = await this.resolve(to, { followFinal: false });
    if (target.relative === "") throw sandboxErrors.illegal(to, "is the server folder itself");
    await fsp.rename(source.path, target.path);
    await this.checkMade(path.dirname(target.path), to);
    // A relative link climbs from where it lies: moved elsewhere, the same text may lead out
    // of the root (issue 13, finding 14). Links found so are checked again; if one leads out,
    // the move is undone.
    if (source.stats.isDirectory() || source.stats.isSymbolicLink()) {
      try {
        await this.checkLinksUnder(target.relative, target.path, source.stats.isSymbolicLink());
      } catch (error) {
        await fsp.rename(target.path, source.path).catch(() => {});
        throw error;
      }
    }
  }

  /** Every symlink at or under `relative` still stays inside the root from where it lies now. */
  private async checkLinksUnder(relative: string, absolute: string, isLink: boolean): Promise<void> {
    if (isLink) {
      const target = await fsp.readlink(absolute);
      // Where an absolute link, or one that never climbs, leads does not change with its place.
      if (path.posix.isAbsolute(target) || !target.split("/").includes("..")) return;
      const folder = path.posix.dirname(relative);
      await this.checkLinkTarget(folder === "." ? "" : folder, target, relative);
      return;
    }
    for (const entry of await fsp.readdir(absolute, { withFileTypes: true })) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      await this.checkLinksUnder(
        `${relative}/${entry.name}`,
        path.join(absolute, entry.name),
        entry.isSymbolicLink(),
      );
    }
  }

  /** Removes a file, a link (not what it points to), an empty folder or, with `recursive`, any folder. */
  async remove(userPath: string, options: { recursive?: boolean } = {}): Promise<void> {
    this.checkChangeable();
    const location = await this.resolve(userPath, { followFinal: false });
    if (!location.stats) throw sandboxErrors.notFound(userPath);
    if (location.relative === "") throw sandboxErrors.illegal(userPath, "is the server folder itself");
    if (!location.stats.isDirectory()) await fsp.unlink(location.path);
    else if (options.recursive) await fsp.rm(location.path, { recursive: true, maxRetries: 5 });
    else await fsp.rmdir(location.path);
  }

  /**
   * Makes a symlink at `linkPath` holding `target` (relative to the link's
   * folder), refused unless the target is relative and, read from the link's
   * place and walked through existing links, stays inside the root.
   */
  async symlink(target: string, linkPath: string): Promise<void> {
    this.checkChangeable();
    const link = await this.resolve(linkPath, { followFinal: false });
    if (link.relative === "") throw sandboxErrors.illegal(linkPath, "is the server folder itself");
    if (target.includes("\0") || path.posix.isAbsolute(target) || /^(?:[A-Za-z]:[\\/]|\\)/.test(target)) {
      throw sandboxErrors.illegal(`${linkPath} -> ${target}`, "is a link to an absolute path");
    }
    // Walked as the kernel will read it later: from the link's folder, with
    // `..` taken after each symlink on the way, not removed from the text first
    // (`here/../x` with here -> "." leaves the root; its text does not say so).
    const folder = path.posix.dirname(link.relative);
    await this.checkLinkTarget(folder === "." ? "" : folder, target, linkPath);
    if (link.stats) {
      if (link.stats.isDirectory()) throw sandboxErrors.exists(linkPath, "is a folder");
      await fsp.unlink(link.path);
    }
    await fsp.symlink(target, link.path);
    await this.handOver(link.path);
    const roots = await this.roots();
    const parent = await fsp.realpath(path.dirname(link.path));
    if (insideOf(roots.real, parent) === undefined) {
      await fsp.unlink(path.join(parent, path.basename(link.path))).catch(() => {});
      throw sandboxErrors.illegal(linkPath, "was moved out of the server folder while it was made");
    }
  }

  /** A link in `folder` (relative to the root) holding `target` leads inside the root. */
  private async checkLinkTarget(folder: string, target: string, linkPath: string): Promise<void> {
    const shown = `${linkPath} -> ${target}`;
    await this.refuseClimbAfterLink(folder, target, shown);
    await walkAsync(await this.roots(), folder ? `${folder}/${target}` : target, true, shown).catch(
      (error) => {
        if (error instanceof ApiError && error.code === "ErrIllegalFileAccess") {
          throw sandboxErrors.illegal(shown, "points out of the server folder");
        }
        throw error;
      },
    );
  }

  /**
   * A link target may not climb (`..`) after passing through another link:
   * `y -> x/../..` is inside while x leads two folders down, and leads out
   * of the root once x is re-pointed (a later archive entry, a later
   * upload), which would not check y again. Without such a climb, whatever
   * x is re-pointed to (itself checked), y stays below it, inside.
   */
  private async refuseClimbAfterLink(folder: string, target: string, shown: string): Promise<void> {
    const parts = target.split("/");
    for (let i = 0; i < parts.length; i++) {
      if (parts[i] === "" || parts[i] === "." || parts[i] === "..") continue;
      const prefix = [folder, ...parts.slice(0, i + 1)].filter(Boolean).join("/");
      const step = await this.resolve(prefix, { followFinal: false }).catch(() => undefined);
      if (!step?.stats?.isSymbolicLink()) continue;
      if (parts.slice(i + 1).includes("..")) {
        throw sandboxErrors.illegal(shown, "climbs with .. out of a folder reached through another link");
      }
      return;
    }
  }

  /** A hard link at `linkPath` to the regular file `existing`, both inside the root. */
  async hardlink(existing: string, linkPath: string): Promise<void> {
    this.checkChangeable();
    const source = await this.resolve(existing);
    if (!source.stats?.isFile()) throw sandboxErrors.notFound(existing);
    const link = await this.resolve(linkPath, { followFinal: false });
    if (link.stats) {
      if (link.stats.isDirectory()) throw sandboxErrors.exists(linkPath, "is a folder");
      await fsp.unlink(link.path);
    }
    await fsp.link(source.path, link.path);
    await this.checkMade(path.dirname(link.path), linkPath);
  }

  /**
   * Paths matching a Go-style pattern (glob.ts), root-relative and sorted
   * per folder as Go's filepath.Glob returns them. Folders are read through
   * the sandbox; a refused or missing folder matches nothing.
   */
  async glob(pattern: string): Promise<string[]> {
    const segments = this.relative(pattern).split("/");
    let candidates = [""];
    for (const segment of segments) {
      const next: string[] = [];
      for (const base of candidates) {
        if (!hasGlobMeta(segment)) {
          next.push(base ? `${base}/${segment}` : segment);
          continue;
        }
        const folder = await this.resolve(base).catch(() => undefined);
        if (!folder?.stats) continue;
        const names = await fsp.readdir(folder.path).catch(() => [] as string[]);
        const matcher = segmentMatcher(segment);
        for (const name of names.sort()) if (matcher.test(name)) next.push(base ? `${base}/${name}` : name);
      }
      candidates = next;
    }
    const found: string[] = [];
    for (const candidate of candidates) {
      const location = await this.resolve(candidate, { followFinal: false }).catch(() => undefined);
      if (location?.stats) found.push(candidate);
    }
    return found;
  }

  /**
   * Removes, anywhere in the folder, the regular files whose name matches and
   * that were last written before `before` (a node's leftovers from before a
   * crash, not a file being written now). Folders are walked as they are,
   * symlinks never followed. Returns how many were removed.
   */
  async removeLeftovers(matches: (name: string) => boolean, before: Date): Promise<number> {
    const roots = await this.roots();
    const pending = [roots.real];
    let removed = 0;
    while (pending.length > 0) {
      const folder = pending.pop() as string;
      const entries = await fsp.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const place = path.join(folder, entry.name);
        if (entry.isDirectory()) pending.push(place);
        else if (entry.isFile() && matches(entry.name)) {
          const stats = await fsp.lstat(place).catch(() => undefined);
          if (stats?.isFile() && stats.mtime < before) {
            await fsp.unlink(place).then(
              () => removed++,
              () => {},
            );
          }
        }
      }
    }
    return removed;
  }

  /** After acting on a path name: refuses (and undoes, when it can) what ended up outside the root. */
  private async checkMade(
    made: string,
    shown: string,
    undo?: (real: string) => Promise<void>,
  ): Promise<void> {
    const roots = await this.roots();
    const real = await fsp.realpath(made);
    if (insideOf(roots.real, real) === undefined) {
      await undo?.(real).catch(() => {});
      throw sandboxErrors.illegal(shown, "was moved out of the server folder while it was made");
    }
  }

  /** Gives an entry the daemon made to the folder's owner (see Roots.owner). */
  private async handOver(made: string): Promise<void> {
    const { owner } = await this.roots();
    if (owner) await fsp.lchown(made, owner.uid, owner.gid);
  }

  private async roots(): Promise<Roots> {
    this.realRoot ??= await fsp.realpath(this.root);
    this.owner ??= ownerOf(await fsp.stat(this.realRoot));
    return { given: this.root, real: this.realRoot, owner: this.owner || undefined };
  }

  private rootsSync(): Roots {
    this.realRoot ??= fs.realpathSync(this.root);
    this.owner ??= ownerOf(fs.statSync(this.realRoot));
    return { given: this.root, real: this.realRoot, owner: this.owner || undefined };
  }
}

/** A root-run daemon hands new entries to a folder owned by someone else; otherwise they stay its own. */
function ownerOf(stats: fs.Stats): { uid: number; gid: number } | false {
  return process.getuid?.() === 0 && stats.uid !== 0 ? { uid: stats.uid, gid: stats.gid } : false;
}
