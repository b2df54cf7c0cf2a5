import fs from "node:fs/promises";
import { privateFileMode } from "../../secrets/private-files.ts";

/** Beside each finished backup (`<name>.facts`): what the node learnt while writing it. */
export const factsSuffix = ".facts";

export interface BackupFacts {
  /** The archive's SHA-256 (hex) and bytes, as written. */
  sha256: string;
  size: number;
  /** Taken while the server ran, without the template's hooks. */
  whileRunning: boolean;
  /** Files the exclusions left out. */
  leftOut: number;
  /** Never pruned by the backup policy. */
  pinned: boolean;
  /** When it was finished (ms since the epoch): the policy's clock (an object's time has only seconds). */
  finishedAt: number;
}

export async function readFacts(backupFile: string): Promise<BackupFacts | undefined> {
  try {
    const raw = JSON.parse(await fs.readFile(backupFile + factsSuffix, "utf8")) as Partial<BackupFacts>;
    return {
      sha256: typeof raw.sha256 === "string" ? raw.sha256 : "",
      size: typeof raw.size === "number" ? raw.size : 0,
      whileRunning: raw.whileRunning === true,
      leftOut: typeof raw.leftOut === "number" ? raw.leftOut : 0,
      pinned: raw.pinned === true,
      finishedAt: typeof raw.finishedAt === "number" ? raw.finishedAt : 0,
    };
  } catch {
    return undefined;
  }
}

/** Written whole then renamed: a crash leaves the old facts or the new, never half. */
export async function writeFacts(backupFile: string, facts: BackupFacts): Promise<void> {
  const temporary = `${backupFile}${factsSuffix}.new`;
  await fs.writeFile(temporary, JSON.stringify(facts), { mode: privateFileMode });
  await fs.rename(temporary, backupFile + factsSuffix);
}
