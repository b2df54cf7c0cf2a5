// argon2's native module loads with the first password checked or set, not at the panel's start.
let argon2Module: Promise<typeof import("@node-rs/argon2")> | undefined;
const argon2 = () => (argon2Module ??= loadArgon2());

/**
 * The module allocates through its own mimalloc, which commits its first segment at once: with the
 * host's transparent huge pages, 2 MiB resident for the few bytes it keeps (issue 41's idle panel
 * creates its first administrator). Committed as used instead: MIMALLOC_EAGER_COMMIT, read once
 * as the module loads, and not left to the processes the panel starts.
 */
async function loadArgon2(): Promise<typeof import("@node-rs/argon2")> {
  const given = process.env.MIMALLOC_EAGER_COMMIT;
  process.env.MIMALLOC_EAGER_COMMIT = given ?? "0";
  try {
    return await import("@node-rs/argon2");
  } finally {
    if (given === undefined) delete process.env.MIMALLOC_EAGER_COMMIT;
  }
}
const bcrypt = () => import("bcryptjs");

/** A hash brought from Pterodactyl or Pelican (Laravel's bcrypt, `$2y$`): checked as it is, then replaced. */
const bcryptHash = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

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
  if (bcryptHash.test(stored)) return (await bcrypt()).compare(password, stored.replace(/^\$2y\$/, "$2b$"));
  if (!stored.startsWith("$argon2")) return verifyAgainstNothing(password);
  try {
    return await (await argon2()).verify(stored, password);
  } catch {
    return false;
  }
}

/** Whether a hash that just matched is another panel's, to be replaced by ours now the password is known. */
export function isForeignHash(stored: string): boolean {
  return bcryptHash.test(stored);
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
