// argon2's native module loads with the first password checked or set, not at the panel's start.
const argon2 = () => import("@node-rs/argon2");

/**
 * Passwords are hashed with argon2id (memory-hard), the library's defaults:
 * 19 MiB, 2 passes, 1 lane — OWASP's recommended minimum.
 */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  // A stored value that is no hash (an invited user's placeholder) fails only after the same
  // work as a real check, so timing does not tell that such an account waits for its invite.
  if (!stored.startsWith("$argon2")) return verifyAgainstNothing(password);
  try {
    return await (await argon2()).verify(stored, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real check when there is no account, so that an
 * unknown e-mail and a wrong password cannot be told apart by timing.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword("outpost-no-such-account");
  await verifyPassword(await dummyHash, password);
  return false;
}

export const minimumPasswordLength = 8;
