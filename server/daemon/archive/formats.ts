/**
 * Archive kinds by file name, as the Go panel's archiver picks them
 * (templates.md §4): zip, tar, and tar compressed with gzip, xz, bzip2 or
 * zstd. Node's zlib reads gzip itself; xz, bzip2 and zstd go through the
 * host's own decompressor (Debian's xz-utils, bzip2, zstd), streamed.
 */
export type ArchiveFormat = "zip" | "tar" | "tar.gz" | "tar.xz" | "tar.bz2" | "tar.zst";

const suffixes: [string, ArchiveFormat][] = [
  [".tar.gz", "tar.gz"],
  [".tgz", "tar.gz"],
  [".tar.xz", "tar.xz"],
  [".txz", "tar.xz"],
  [".tar.bz2", "tar.bz2"],
  [".tbz2", "tar.bz2"],
  [".tbz", "tar.bz2"],
  [".tar.zst", "tar.zst"],
  [".tzst", "tar.zst"],
  [".tar", "tar"],
  [".zip", "zip"],
  [".jar", "zip"],
];

export function archiveFormat(name: string): ArchiveFormat | undefined {
  const lower = name.toLowerCase();
  return suffixes.find(([suffix]) => lower.endsWith(suffix))?.[1];
}

/** The external program that decompresses a format, when Node cannot. */
export const decompressors: Partial<Record<ArchiveFormat, string[]>> = {
  "tar.xz": ["xz", "-dc"],
  "tar.bz2": ["bzip2", "-dc"],
  "tar.zst": ["zstd", "-dc"],
};
