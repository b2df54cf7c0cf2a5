import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import type { WriteOptions } from "./open.ts";
import { Sandbox } from "./sandbox.ts";
import type { Location } from "./walk.ts";

/** A denylist pattern's glob as a regular expression over one path or name. */
function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (char === "*") out += "[^/]*";
    else if (char === "?") out += "[^/]";
    else out += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return out;
}

/** A denylist: whether a path is protected, and whether a folder at a path may come to hold one. */
export interface Denylist {
  (relative: string): boolean;
  /**
   * Whether a pattern names a path from the server folder below `folder` (`config/secret.yml`
   * below `config`): a link made there would put another folder's files at protected paths.
   */
  mayHoldDenied(folder: string): boolean;
}

/**
 * An egg's `file_denylist` (gitignore-style, as Wings reads it): a pattern
 * with a slash names a path from the server folder, one without names a file
 * or folder at any depth; `!pattern` allows again what an earlier pattern
 * denied. A path is denied when it or a folder above it matches.
 */
export function denylistMatcher(patterns: string[]): Denylist {
  const rules = patterns
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern && !pattern.startsWith("#"))
    .map((pattern) => {
      const allow = pattern.startsWith("!");
      const body = (allow ? pattern.slice(1) : pattern).replace(/\/+$/, "");
      const anchored = body.includes("/");
      const path = body.replace(/^\/+/, "");
      const source = globSource(path);
      const segments = path.split("/").map((segment) => new RegExp(`^${globSource(segment)}$`));
      return { allow, anchored, segments, regex: new RegExp(anchored ? `^${source}$` : `(^|/)${source}$`) };
    });
  const denied = (relative: string) => {
    const parts = relative.split("/").filter(Boolean);
    let isDenied = false;
    for (let end = 1; end <= parts.length; end++) {
      const prefix = parts.slice(0, end).join("/");
      for (const rule of rules) if (rule.regex.test(prefix)) isDenied = !rule.allow;
    }
    return isDenied;
  };
  // An allowing pattern is not weighed here: a folder that may hold a protected path is refused as a link.
  const mayHoldDenied = (folder: string) => {
    const parts = folder.split("/").filter(Boolean);
    return rules.some((rule) => {
      if (rule.allow || !rule.anchored) return false;
      for (let i = 0; i < parts.length; i++) {
        const segment = rule.segments[i];
        if (!segment) return false;
        // `**` reaches any depth below what matched so far.
        if (segment.source === "^.*$") return true;
        if (!segment.test(parts[i])) return false;
      }
      return parts.length < rule.segments.length;
    });
  };
  return Object.assign(denied, { mayHoldDenied });
}

const deniedFile = (shown: string) =>
  new ApiError(403, "ErrFileDenied", "${path} may not be changed: the server's template protects it", {
    path: shown,
  });

/**
 * The sandbox a server's users reach (file manager, SFTP) when its template
 * protects files: the same sandbox, refusing to write, create, rename,
 * remove or link a protected path. The node's own steps use the plain one.
 */
export class ProtectedSandbox extends Sandbox {
  constructor(
    root: string,
    private readonly denied: Denylist,
  ) {
    super(root);
  }

  /**
   * Refuses a protected path, by its text and by where it really is (a link made to a
   * protected folder reaches the same files); `inside`: also a folder holding a protected
   * path, as renaming or removing the folder would take that path with it.
   */
  private async check(
    userPath: string,
    opts: { inside?: boolean; followFinal?: boolean } = {},
  ): Promise<void> {
    if (this.denied(this.relative(userPath))) throw deniedFile(userPath);
    // A path that does not resolve is refused by the operation itself, as without a denylist.
    const location = await this.resolve(userPath, { followFinal: opts.followFinal ?? false }).catch(
      () => undefined,
    );
    if (!location) return;
    if (this.denied(location.relative)) throw deniedFile(userPath);
    if (
      opts.inside &&
      location.stats?.isDirectory() &&
      (await this.holdsDenied(location.path, location.relative))
    )
      throw deniedFile(userPath);
  }

  /** Where a new entry at a user's path really lands: its folder resolved (links followed), then its name. */
  private async landingOf(userPath: string): Promise<string> {
    const lexical = this.relative(userPath);
    const name = path.posix.basename(lexical);
    const folder = await this.resolve(path.posix.dirname(lexical) || ".", { followFinal: true }).catch(
      () => undefined,
    );
    return folder ? path.posix.join(folder.relative, name) : lexical;
  }

  /** Whether anything under a folder is protected (links are not followed: they stay where they lie). */
  private async holdsDenied(absolute: string, relative: string): Promise<boolean> {
    const entries = await fsp.readdir(absolute, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const inner = relative ? `${relative}/${entry.name}` : entry.name;
      if (this.denied(inner)) return true;
      if (entry.isDirectory() && (await this.holdsDenied(path.join(absolute, entry.name), inner)))
        return true;
    }
    return false;
  }

  override async openResolvedWrite(
    location: Location,
    shown = location.relative,
    options: WriteOptions = {},
  ): Promise<FileHandle> {
    if (this.denied(location.relative)) throw deniedFile(shown);
    return super.openResolvedWrite(location, shown, options);
  }

  override async mkdirp(userPath: string, signal?: AbortSignal): Promise<Location> {
    await this.check(userPath);
    return super.mkdirp(userPath, signal);
  }

  override async rename(from: string, to: string): Promise<void> {
    await this.check(from, { inside: true });
    await this.check(to);
    await this.checkLanding(from, to);
    return super.rename(from, to);
  }

  /**
   * What a rename puts at the destination: a protected path that does not exist yet is made by
   * moving a folder holding it into place (`tmp/secret.yml` → `config/secret.yml`), and a link
   * moved to a folder that may hold protected paths puts another folder's files there.
   */
  private async checkLanding(from: string, to: string): Promise<void> {
    const source = await this.resolve(from, { followFinal: false }).catch(() => undefined);
    if (!source?.stats) return;
    const landing = await this.landingOf(to);
    // Through a link to a protected path's folder, a name that is not protected lands on one that is.
    if (this.denied(landing)) throw deniedFile(to);
    if (source.stats.isSymbolicLink() && this.denied.mayHoldDenied(landing)) throw deniedFile(to);
    if (source.stats.isDirectory() && (await this.holdsDenied(source.path, landing))) throw deniedFile(to);
  }

  override async remove(userPath: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.check(userPath, { inside: true });
    return super.remove(userPath, options);
  }

  override async symlink(target: string, linkPath: string): Promise<void> {
    await this.check(linkPath);
    // A link where a protected path's folder would be makes its target's files protected paths.
    if (this.denied.mayHoldDenied(await this.landingOf(linkPath))) throw deniedFile(linkPath);
    return super.symlink(target, linkPath);
  }

  override async hardlink(existing: string, linkPath: string): Promise<void> {
    // A hard link to a protected file is that file under another name.
    await this.check(existing, { followFinal: true });
    await this.check(linkPath);
    return super.hardlink(existing, linkPath);
  }
}
