import { ApiError } from "../../errors.ts";
import { parseSshPublicKey } from "../sign-in-methods/ssh-public-key.ts";
import { errorText } from "./error-text.ts";
import type { PanelImport } from "./importer.ts";

/**
 * The source users' public keys, onto their accounts here (issue 39's keys): they sign in to
 * SFTP with the keys they used there. A key the account holds already is mapped onto it; an
 * account that was here before the import is left as it is; a key this panel refuses (a short
 * RSA key, a type it does not take) is skipped with why.
 */
export async function importSshKeys(run: PanelImport): Promise<void> {
  for (const key of run.source.sshKeys) {
    const owner = run.users.get(key.userId);
    const sourceUser = run.source.users.find((u) => u.id === key.userId);
    const label = `SSH key "${key.name}" of ${owner?.username ?? sourceUser?.username ?? key.userId}`;
    if (!owner) {
      run.line("skipped", `${label}: its user was not brought over`);
      continue;
    }
    if (run.earlier("ssh_key", key.id)) {
      run.line("kept", `${label}: imported before`);
      continue;
    }
    if (run.leftAlone.has(key.userId)) {
      run.line(
        "skipped",
        `${label}: the account with that e-mail here is left as it is (its owner adds the key under their account's SSH keys)`,
      );
      continue;
    }
    let fingerprint: string;
    try {
      fingerprint = parseSshPublicKey(key.publicKey).fingerprint;
    } catch (err) {
      run.line("skipped", `${label}: ${errorText(err)}`);
      continue;
    }
    if (!run.options.apply) {
      run.line("created", `${label} (${fingerprint}) for SFTP sign-in`);
      continue;
    }
    try {
      const made = await run.services.sshKeys.add(owner.id, {
        name: key.name.trim().slice(0, 100),
        publicKey: key.publicKey,
      });
      await run.record("ssh_key", key.id, made.id);
      run.line("created", `${label} (${fingerprint}) for SFTP sign-in`);
    } catch (err) {
      if (err instanceof ApiError && err.code === "ErrSshKeyExists") {
        const held = (await run.services.sshKeys.list(owner.id)).find((k) => k.fingerprint === fingerprint);
        if (held) {
          await run.record("ssh_key", key.id, held.id);
          run.line("mapped", `${label} → the same key on ${owner.username}'s account here`);
          continue;
        }
      }
      run.line("skipped", `${label}: ${errorText(err)}`);
    }
  }
}
