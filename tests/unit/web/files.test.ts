import { describe, expect, it } from "vitest";
import { encodeFilePath, fileUrl, steppedProgress, UPLOAD_STEP } from "../../../src/api/files";
import { intlLocale } from "../../../src/i18n/locales";
import {
  archiveKind,
  EDIT_LIMIT,
  entryKind,
  mayEditAsText,
  newArchiveFormat,
  withArchiveSuffix,
} from "../../../src/screens/servers/files/kinds";
import { toEditable, toStored } from "../../../src/screens/servers/files/lineEndings";
import {
  baseName,
  breadcrumbs,
  dirFromSearch,
  joinPath,
  nameProblem,
  parentPath,
  pathProblem,
  resolveTyped,
  searchWithDir,
} from "../../../src/screens/servers/files/paths";
import { sortEntries } from "../../../src/screens/servers/files/sorting";
import { formatBytes, formatPercent, formatTime } from "../../../src/screens/servers/format";

describe("file paths in URLs (spec §5)", () => {
  it("strips leading slashes and keeps the others", () => {
    expect(encodeFilePath("/plugins/config.yml")).toBe("plugins/config.yml");
    expect(encodeFilePath("///a/b")).toBe("a/b");
    expect(encodeFilePath("")).toBe("");
  });
  it("encodes what a URL path cannot carry, each segment apart", () => {
    expect(encodeFilePath("my world/level dat")).toBe("my%20world/level%20dat");
    expect(encodeFilePath("a#b/c%d?e")).toBe("a%23b/c%25d%3Fe");
    expect(encodeFilePath("Grüße/日本語.txt")).toBe("Gr%C3%BC%C3%9Fe/%E6%97%A5%E6%9C%AC%E8%AA%9E.txt");
    expect(encodeFilePath("+&=;")).toBe("%2B%26%3D%3B");
  });
  it("decodes back to the same path", () => {
    const path = "dir #1/100% sure/ünï cödé & more.txt";
    expect(encodeFilePath(path).split("/").map(decodeURIComponent).join("/")).toBe(path);
  });
  it("builds the file URL under the server", () => {
    expect(fileUrl("0a1b2c3d", "/logs/latest log.txt")).toBe(
      "/api/servers/0a1b2c3d/file/logs/latest%20log.txt",
    );
    expect(fileUrl("0a1b2c3d", "")).toBe("/api/servers/0a1b2c3d/file/");
  });
});

describe("paths inside the server folder", () => {
  it("joins, finds the parent and the base name", () => {
    expect(joinPath("", "a")).toBe("a");
    expect(joinPath("a/b", "c d")).toBe("a/b/c d");
    expect(joinPath("/a/", "/b/")).toBe("a/b");
    expect(parentPath("a/b/c")).toBe("a/b");
    expect(parentPath("a")).toBe("");
    expect(parentPath("")).toBe("");
    expect(baseName("a/b/c.txt")).toBe("c.txt");
    expect(baseName("c.txt")).toBe("c.txt");
  });
  it("splits a folder into breadcrumbs, each with its own path", () => {
    expect(breadcrumbs("")).toEqual([]);
    expect(breadcrumbs("/world/region/")).toEqual([
      { name: "world", path: "world" },
      { name: "region", path: "world/region" },
    ]);
    expect(breadcrumbs("a//b")).toEqual([
      { name: "a", path: "a" },
      { name: "b", path: "a/b" },
    ]);
  });
  it("refuses names that are empty, hold a slash, or are . and ..", () => {
    expect(nameProblem("")).toBe("empty");
    expect(nameProblem("a/b")).toBe("slash");
    expect(nameProblem(".")).toBe("dots");
    expect(nameProblem("..")).toBe("dots");
    expect(nameProblem("a\0b")).toBe("nul");
    expect(nameProblem("...")).toBeUndefined();
    expect(nameProblem(".env")).toBeUndefined();
    expect(nameProblem("my file #1.txt")).toBeUndefined();
  });
  it("checks typed paths segment by segment", () => {
    expect(pathProblem("/plugins/new.jar")).toBeUndefined();
    expect(pathProblem("a//b/")).toBeUndefined();
    expect(pathProblem("/")).toBe("empty");
    expect(pathProblem("/", true)).toBeUndefined();
    expect(pathProblem("a/../b")).toBe("dots");
    expect(pathProblem("./a")).toBe("dots");
  });
  it("reads a typed path from the server folder with a leading slash, else from the current folder", () => {
    expect(resolveTyped("world", "/backup/level.dat")).toBe("backup/level.dat");
    expect(resolveTyped("world", "level2.dat")).toBe("world/level2.dat");
    expect(resolveTyped("", " notes.txt ")).toBe("notes.txt");
    expect(resolveTyped("world", "/")).toBe("");
  });
  it("keeps the folder in the query string, readable and beside other parameters", () => {
    expect(searchWithDir("", "world/my region")).toBe("?path=/world/my%20region");
    expect(searchWithDir("?x=1&path=/old", "a#b")).toBe("?x=1&path=/a%23b");
    expect(searchWithDir("?path=/old", "")).toBe("");
    for (const dir of ["", "world", "a b/c#d/100%/ü"])
      expect(dirFromSearch(searchWithDir("", dir))).toBe(dir);
    expect(dirFromSearch("?path=/a/../../etc")).toBe("");
    expect(dirFromSearch("?other=1")).toBe("");
  });
});

describe("listing order", () => {
  const entries = [
    { name: "b.txt", isFile: true, size: 5, modifyTime: 300 },
    { name: "world", isFile: false },
    { name: "A.txt", isFile: true, size: 50, modifyTime: 100 },
    { name: "..", isFile: false },
    { name: "file10.log", isFile: true, size: 1, modifyTime: 200 },
    { name: "file9.log", isFile: true, size: 1, modifyTime: 400 },
    { name: "config", isFile: false },
  ];
  const names = (order: Parameters<typeof sortEntries>[1]) => sortEntries(entries, order).map((e) => e.name);

  it("puts .. first, then folders, then files, by name without case and with numbers in order", () => {
    expect(names({ key: "name", descending: false })).toEqual([
      "..",
      "config",
      "world",
      "A.txt",
      "b.txt",
      "file9.log",
      "file10.log",
    ]);
  });
  it("reverses within the groups, never the groups", () => {
    expect(names({ key: "name", descending: true })).toEqual([
      "..",
      "world",
      "config",
      "file10.log",
      "file9.log",
      "b.txt",
      "A.txt",
    ]);
  });
  it("sorts files by size with names breaking ties; folders stay by name", () => {
    expect(names({ key: "size", descending: false })).toEqual([
      "..",
      "config",
      "world",
      "file9.log",
      "file10.log",
      "b.txt",
      "A.txt",
    ]);
  });
  it("sorts by modification time", () => {
    expect(names({ key: "modified", descending: true }).slice(3)).toEqual([
      "file9.log",
      "b.txt",
      "file10.log",
      "A.txt",
    ]);
  });
  it("leaves the input alone", () => {
    const copy = structuredClone(entries);
    sortEntries(entries, { key: "size", descending: true });
    expect(entries).toEqual(copy);
  });
});

describe("what a file is", () => {
  it("knows the archives the panel unpacks, whatever the case", () => {
    const cases: [string, ReturnType<typeof archiveKind>][] = [
      ["world.zip", "zip"],
      ["WORLD.ZIP", "zip"],
      ["a.tar", "tar"],
      ["a.tar.gz", "tar.gz"],
      ["a.tgz", "tar.gz"],
      ["a.tar.xz", "tar.xz"],
      ["a.tar.bz2", "tar.bz2"],
      ["a.tar.zst", "tar.zst"],
      ["a.gz", undefined],
      ["a.zip.txt", undefined],
      ["zip", undefined],
      [".zip", undefined],
      ["server.jar", undefined],
    ];
    for (const [name, kind] of cases) expect(archiveKind(name), name).toBe(kind);
  });
  it("writes archives as .zip or .tar.gz only", () => {
    expect(newArchiveFormat("backup.zip")).toBe("zip");
    expect(newArchiveFormat("backup.tgz")).toBe("tar.gz");
    expect(newArchiveFormat("backup.tar.gz")).toBe("tar.gz");
    expect(newArchiveFormat("backup.tar")).toBeUndefined();
    expect(newArchiveFormat("backup")).toBeUndefined();
    expect(withArchiveSuffix("backup.zip", "tar.gz")).toBe("backup.tar.gz");
    expect(withArchiveSuffix("backup.tar.gz", "zip")).toBe("backup.zip");
    expect(withArchiveSuffix("backup", "zip")).toBe("backup.zip");
    expect(withArchiveSuffix("my.world", "zip")).toBe("my.world.zip");
  });
  it("tells folders, archives, text and other files apart", () => {
    expect(entryKind({ name: "..", isFile: false })).toBe("up");
    expect(entryKind({ name: "world", isFile: false })).toBe("folder");
    expect(entryKind({ name: "w.tar.gz", isFile: true })).toBe("archive");
    expect(entryKind({ name: "server.properties", isFile: true })).toBe("text");
    expect(entryKind({ name: "eula", isFile: true })).toBe("text");
    expect(entryKind({ name: "Config.YML", isFile: true })).toBe("text");
    expect(entryKind({ name: "server.jar", isFile: true })).toBe("file");
  });
  it("offers the editor up to 2 MiB, never for archives", () => {
    expect(mayEditAsText({ name: "a.log", isFile: true, size: EDIT_LIMIT })).toBe(true);
    expect(mayEditAsText({ name: "a.log", isFile: true, size: EDIT_LIMIT + 1 })).toBe(false);
    expect(mayEditAsText({ name: "a.bin", isFile: true, size: 10 })).toBe(true);
    expect(mayEditAsText({ name: "a.zip", isFile: true, size: 10 })).toBe(false);
    expect(mayEditAsText({ name: "dir", isFile: false })).toBe(false);
  });
});

describe("upload progress (spec §9: 64 KB chunks)", () => {
  it("moves in whole 64 KiB steps and reaches the total only at the end", () => {
    expect(UPLOAD_STEP).toBe(65536);
    expect(steppedProgress(0, 1_000_000)).toBe(0);
    expect(steppedProgress(65535, 1_000_000)).toBe(0);
    expect(steppedProgress(65536, 1_000_000)).toBe(65536);
    expect(steppedProgress(200_000, 1_000_000)).toBe(196608);
    expect(steppedProgress(999_999, 1_000_000)).toBe(983040);
    expect(steppedProgress(1_000_000, 1_000_000)).toBe(1_000_000);
    expect(steppedProgress(10, 10)).toBe(10);
  });
  it("never goes down as bytes arrive", () => {
    let last = 0;
    for (let loaded = 0; loaded <= 500_000; loaded += 7919) {
      const p = steppedProgress(loaded, 500_000);
      expect(p).toBeGreaterThanOrEqual(last);
      expect(p % UPLOAD_STEP === 0 || p === 500_000).toBe(true);
      last = p;
    }
  });
});

describe("sizes and percentages in the active locale", () => {
  it("uses decimal units and the locale's digits", () => {
    expect(formatBytes(1500, "en-US")).toBe("1.5 kB");
    expect(formatBytes(3_200_000, "en-US")).toBe("3.2 MB");
    expect(formatBytes(1500, "de-DE")).toBe("1,5 kB");
  });
  it('names bytes in full everywhere, and only bytes (not "146 byte" here and "839 bytes" there)', () => {
    expect(formatBytes(146, "en-US")).toBe("146 bytes");
    expect(formatBytes(1, "en-US")).toBe("1 byte");
    expect(formatBytes(1500, "en-US")).toBe("1.5 kB");
  });
  it("writes Arabic numbers in the digits of the addresses beside them", () => {
    const ar = intlLocale("ar_SA");
    expect(formatBytes(1500, ar)).toMatch(/^1[.,٫]5 /);
    expect(formatPercent(1, 2, ar)).toMatch(/50/);
    expect(new Intl.DateTimeFormat(ar, { year: "numeric" }).format(new Date(2026, 1, 1))).toMatch(/2026/);
    expect(intlLocale("de_DE")).toBe("de-DE");
    expect(intlLocale("no_NO")).toBe("nb-NO");
  });
  it("says 100 % only once everything is there", () => {
    expect(formatPercent(999, 1000, "en-US")).toBe("99%");
    expect(formatPercent(1000, 1000, "en-US")).toBe("100%");
    expect(formatPercent(0, 0, "en-US")).toBe("100%");
  });
});

describe("line endings in the editor", () => {
  it("shows LF in the text area and writes CRLF back to a CRLF file", () => {
    const raw = "a=1\r\nb=2\r\n";
    const { text, crlf } = toEditable(raw);
    expect(text).toBe("a=1\nb=2\n");
    expect(crlf).toBe(true);
    expect(toStored(`${text}c=3\n`, crlf)).toBe("a=1\r\nb=2\r\nc=3\r\n");
  });
  it("leaves LF files and a byte-order mark alone", () => {
    const raw = "\uFEFFkey: value\n";
    const { text, crlf } = toEditable(raw);
    expect(crlf).toBe(false);
    expect(toStored(text, crlf)).toBe(raw);
  });
});

describe("modification times in the active locale", () => {
  const noon = Date.UTC(2026, 10, 23, 12, 0) / 1000;
  it("gives date and time, or the numeric date alone for narrow rows", () => {
    const local = new Date(noon * 1000);
    expect(formatTime(noon, "en-US")).toBe(
      new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(local),
    );
    expect(formatTime(noon, "en-US")).toMatch(/^Nov 2[34], 2026, \d{1,2}:\d{2}\s[AP]M$/);
    expect(formatTime(noon, "en-US", true)).toMatch(/^11\/2[34]\/26$/);
    expect(formatTime(noon, "de-DE", true)).toMatch(/^2[34]\.11\.26$/);
  });
});
