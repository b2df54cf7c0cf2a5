import { type Static, Type } from "typebox";

/**
 * Shapes that cross the panel↔node seam for a server's mods and plugins (issue 37). The panel
 * asks the sources (Modrinth, Hangar, CurseForge) what to fetch; the node fetches it, checks
 * its hash and places it, and hashes what is in the folder so the panel can recognise it.
 */

/** A file name in the mods folder: one name, never a path. */
export const ModFileName = Type.String({ minLength: 1, maxLength: 255, pattern: "^[^/\\\\\\u0000]+$" });

/** The folder the template names, inside the server's folder (checked again by the sandbox). */
const ModFolder = Type.String({ minLength: 1, maxLength: 255 });

const Hex = (length: number) => Type.String({ pattern: `^[0-9a-f]{${length}}$` });

export const ModFileHashes = Type.Object({
  sha1: Type.Optional(Hex(40)),
  sha256: Type.Optional(Hex(64)),
  sha512: Type.Optional(Hex(128)),
});
export type ModFileHashes = Static<typeof ModFileHashes>;

/** One file in the folder, with the hashes the sources look files up by. */
export const ModFileEntry = Type.Object({
  file: Type.String(),
  size: Type.Number(),
  sha1: Hex(40),
  sha256: Hex(64),
  sha512: Hex(128),
  /** CurseForge's fingerprint (MurmurHash2 of the bytes without whitespace); older nodes omit it. */
  murmur2: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
});
export type ModFileEntry = Static<typeof ModFileEntry>;

export const ModFileList = Type.Array(ModFileEntry);

export const ModFolderQuery = Type.Object({ folder: ModFolder });

export const ModRemoveQuery = Type.Object({ folder: ModFolder, file: ModFileName });

/** One file to fetch: at least one hash is required, and the file lands only if it matches. */
export const ModDownload = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  file: ModFileName,
  hashes: ModFileHashes,
});
export type ModDownload = Static<typeof ModDownload>;

export const ModInstallBody = Type.Object({
  folder: ModFolder,
  files: Type.Array(ModDownload, { minItems: 1, maxItems: 50 }),
  /**
   * Hosts an administrator chose as sources (a mirror, a test's stand-in): their addresses are
   * fetched from even when not public. Every other address must be public (net/public-address.ts).
   */
  trustedHosts: Type.Array(Type.String({ maxLength: 255 }), { maxItems: 10 }),
});
export type ModInstallBody = Static<typeof ModInstallBody>;

/** What the panel asks of a node about a server's mods. */
export interface NodeMods {
  /** The files in `folder` (none when it does not exist yet), hashed. */
  list(id: string, folder: string): Promise<ModFileEntry[]>;
  /** Fetches every file, checks each hash, and only then places them all; a mismatch places none. */
  install(id: string, body: ModInstallBody): Promise<void>;
  remove(id: string, folder: string, file: string): Promise<void>;
}
