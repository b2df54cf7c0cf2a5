import type { FileEntry } from "../../../api/files";

// What a file is, by its name: archives the panel can unpack, text the editor opens.

export type ArchiveKind = "zip" | "tar" | "tar.gz" | "tar.xz" | "tar.bz2" | "tar.zst";

// Longest suffix first, so ".tar.gz" wins over a shorter match.
const ARCHIVE_SUFFIXES: [string, ArchiveKind][] = [
  [".tar.bz2", "tar.bz2"],
  [".tar.zst", "tar.zst"],
  [".tar.gz", "tar.gz"],
  [".tar.xz", "tar.xz"],
  [".tgz", "tar.gz"],
  [".tar", "tar"],
  [".zip", "zip"],
];

/** The archive format a file name says, if any (case-insensitive). */
export function archiveKind(name: string): ArchiveKind | undefined {
  const lower = name.toLowerCase();
  for (const [suffix, kind] of ARCHIVE_SUFFIXES) {
    if (lower.length > suffix.length && lower.endsWith(suffix)) return kind;
  }
  return undefined;
}

/** The formats the panel can write an archive in, by the new archive's name. */
export type NewArchiveFormat = "zip" | "tar.gz";

export function newArchiveFormat(name: string): NewArchiveFormat | undefined {
  const kind = archiveKind(name);
  return kind === "zip" || kind === "tar.gz" ? kind : undefined;
}

/** The name with its archive suffix replaced by the format's own (".zip" or ".tar.gz"). */
export function withArchiveSuffix(name: string, format: NewArchiveFormat): string {
  const lower = name.toLowerCase();
  const suffix = ARCHIVE_SUFFIXES.find(([s]) => lower.length > s.length && lower.endsWith(s))?.[0];
  const stem = suffix ? name.slice(0, name.length - suffix.length) : name;
  return `${stem}.${format}`;
}

// Configuration, scripts, logs and data of the usual game servers.
const TEXT_EXTENSIONS = new Set([
  "txt",
  "log",
  "md",
  "json",
  "json5",
  "jsonc",
  "yml",
  "yaml",
  "toml",
  "ini",
  "cfg",
  "conf",
  "config",
  "properties",
  "env",
  "xml",
  "html",
  "htm",
  "css",
  "csv",
  "tsv",
  "sh",
  "bash",
  "bat",
  "cmd",
  "ps1",
  "js",
  "mjs",
  "cjs",
  "ts",
  "lua",
  "py",
  "rb",
  "php",
  "java",
  "kt",
  "cs",
  "go",
  "rs",
  "c",
  "h",
  "cpp",
  "sql",
  "mcmeta",
  "mcfunction",
  "sk",
  "lang",
  "vdf",
  "acf",
  "nut",
  "scr",
  "list",
]);

const TEXT_NAMES = new Set(["dockerfile", "makefile", "readme", "license", "eula", ".env", ".gitignore"]);

/** The extension of a name (lower case, no dot); "" for none or a dot file's name. */
export function extensionOf(name: string): string {
  const at = name.lastIndexOf(".");
  return at <= 0 ? "" : name.slice(at + 1).toLowerCase();
}

/** Whether a name says text (a click opens the editor rather than downloading). */
export function isTextName(name: string): boolean {
  return TEXT_EXTENSIONS.has(extensionOf(name)) || TEXT_NAMES.has(name.toLowerCase());
}

/** Files up to this size open in the editor; bigger ones are offered for download. */
export const EDIT_LIMIT = 2 * 1024 * 1024;

export type EntryKind = "up" | "folder" | "archive" | "text" | "file";

export function entryKind(entry: Pick<FileEntry, "name" | "isFile">): EntryKind {
  if (!entry.isFile) return entry.name === ".." ? "up" : "folder";
  if (archiveKind(entry.name)) return "archive";
  if (isTextName(entry.name)) return "text";
  return "file";
}

/** Whether the editor may try a file: not an archive, and not known to be too big. */
export function mayEditAsText(entry: FileEntry): boolean {
  return entry.isFile && !archiveKind(entry.name) && (entry.size ?? 0) <= EDIT_LIMIT;
}
