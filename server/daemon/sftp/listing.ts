import { constants as fsConstants, type Stats } from "node:fs";
import type { Attributes } from "ssh2";

/** SFTP attributes of a file (times in whole seconds, as the protocol carries them). */
export function attrsOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const halfYearMs = (365.25 / 2) * 24 * 3600_000;

/**
 * The `ls -l` line SFTP version 3 sends beside each name, which OpenSSH's
 * `ls -l` prints as it is: laid out as OpenSSH's own server does
 * (sftp-common.c ls_file), with numeric owner and group (the daemon's
 * account names mean nothing to the person connecting).
 */
export function longNameOf(name: string, stats: Stats, now = Date.now()): string {
  const mtime = stats.mtime;
  const day = String(mtime.getDate()).padStart(2, " ");
  const recent = Math.abs(now - mtime.getTime()) < halfYearMs;
  const when = recent
    ? `${months[mtime.getMonth()]} ${day} ${String(mtime.getHours()).padStart(2, "0")}:${String(mtime.getMinutes()).padStart(2, "0")}`
    : `${months[mtime.getMonth()]} ${day}  ${mtime.getFullYear()}`;
  const owner = String(stats.uid).padEnd(8, " ");
  const group = String(stats.gid).padEnd(8, " ");
  const links = String(stats.nlink).padStart(3, " ");
  const size = String(stats.size).padStart(8, " ");
  return `${modeString(stats.mode)} ${links} ${owner} ${group} ${size} ${when} ${name}`;
}

const { S_IFMT, S_IFSOCK, S_IFLNK, S_IFREG, S_IFBLK, S_IFDIR, S_IFCHR, S_IFIFO } = fsConstants;
const typeLetters = new Map<number, string>([
  [S_IFSOCK, "s"],
  [S_IFLNK, "l"],
  [S_IFREG, "-"],
  [S_IFBLK, "b"],
  [S_IFDIR, "d"],
  [S_IFCHR, "c"],
  [S_IFIFO, "p"],
]);

/** `drwxr-xr-x` from a mode, with setuid/setgid/sticky shown as ls shows them. */
export function modeString(mode: number): string {
  const bit = (mask: number, letter: string) => (mode & mask ? letter : "-");
  const special = (exec: number, flag: number, set: string, unset: string) =>
    mode & flag ? (mode & exec ? set : unset) : mode & exec ? "x" : "-";
  return [
    typeLetters.get(mode & S_IFMT) ?? "?",
    bit(0o400, "r"),
    bit(0o200, "w"),
    special(0o100, 0o4000, "s", "S"),
    bit(0o040, "r"),
    bit(0o020, "w"),
    special(0o010, 0o2000, "s", "S"),
    bit(0o004, "r"),
    bit(0o002, "w"),
    special(0o001, 0o1000, "t", "T"),
  ].join("");
}
