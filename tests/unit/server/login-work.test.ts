import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { migrate, type OpenedDatabase, openDatabase } from "../../../server/db/database.ts";
import { Accounts } from "../../../server/panel/accounts.ts";
import { SecretBox } from "../../../server/secrets/secret-box.ts";

// Every argon2 check the panel makes, recorded on its way to the real library (which still does the work).
const { checked } = vi.hoisted(() => ({ checked: [] as string[] }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/argon2")>();
  return {
    ...real,
    verify: (hash: string, password: string) => {
      checked.push(hash);
      return real.verify(hash, password);
    },
  };
});

/** An argon2 hash's cost: variant, version, memory, passes, lanes ("$argon2id$v=19$m=19456,t=2,p=1"). */
const cost = (hash: string) => hash.split("$").slice(0, 4).join("$");

/**
 * An unknown e-mail must cost the same work as a wrong password, or the time a
 * sign-in takes tells which e-mails have accounts. Counted, not timed: each
 * case makes exactly one argon2 check, at the cost of a real account's hash.
 */
describe("sign-in work for unknown accounts", () => {
  let dir: string;
  let opened: OpenedDatabase;
  let accounts: Accounts;
  let storedHash: string;
  let userId: number;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-login-work-"));
    opened = openDatabase({ dataDir: dir });
    await migrate(opened);
    accounts = new Accounts(opened.db, SecretBox.forPanel(dir, undefined));
    userId = (
      await accounts.create({
        username: "someone",
        email: "someone@example.com",
        password: "a-real-password",
        scopes: ["login"],
      })
    ).id;
    const row = await opened.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    storedHash = row.password_hash;
  });
  afterAll(async () => {
    await opened?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    checked.length = 0;
  });

  it("checks a wrong password once against the account's hash", async () => {
    expect(await accounts.checkPassword("someone@example.com", "wrong-password")).toBeUndefined();
    expect(checked).toEqual([storedHash]);
  });

  it("checks an unknown e-mail once too, against a hash of the same cost", async () => {
    expect(await accounts.checkPassword("nobody@example.com", "wrong-password")).toBeUndefined();
    expect(checked).toHaveLength(1);
    expect(checked[0]).not.toBe(storedHash);
    expect(cost(checked[0])).toBe(cost(storedHash));
  });

  it("does the same for a password checked by user id when there is no such user", async () => {
    expect(await accounts.checkPasswordOf(userId + 1000, "wrong-password")).toBe(false);
    expect(checked).toHaveLength(1);
    expect(cost(checked[0])).toBe(cost(storedHash));
  });
});
