import fs from "node:fs";
import path from "node:path";
import ssh2 from "ssh2";
import { ensurePrivateFile } from "../../secrets/private-files.ts";

export const hostKeyFileName = "sftp_host_ed25519_key";

/**
 * The node's SFTP host key: Ed25519, made on the first start and kept in the
 * node's data folder (OpenSSH format, readable by the daemon's user only), so
 * clients that remember it are not warned after a restart.
 */
export function loadOrCreateHostKey(dataDir: string): Buffer {
  const file = path.join(dataDir, hostKeyFileName);
  try {
    ensurePrivateFile(file);
    return checked(fs.readFileSync(file), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = newHostKey();
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": two processes starting on one folder keep the first key, not a mix.
    fs.writeFileSync(file, key, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return checked(fs.readFileSync(file), file);
}

function checked(key: Buffer, file: string): Buffer {
  const parsed = ssh2.utils.parseKey(key);
  if (parsed instanceof Error) throw new Error(`SFTP host key ${file} is unreadable: ${parsed.message}`);
  return key;
}

/**
 * A fresh key that ssh2 itself can read back: its generator writes about one
 * Ed25519 key in 250 with a 31-byte public key (a leading zero byte dropped),
 * which its own parser then refuses as malformed. Such a key is thrown away.
 */
function newHostKey(): string {
  for (let attempt = 0; attempt < 20; attempt++) {
    const key = ssh2.utils.generateKeyPairSync("ed25519").private;
    if (!(ssh2.utils.parseKey(key) instanceof Error)) return key;
  }
  throw new Error("could not generate a readable SFTP host key");
}
