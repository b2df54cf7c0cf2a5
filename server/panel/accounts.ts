import type { UserView as User } from "../contract/api/self.ts";
import type { Db } from "../db/database.ts";
import type { UserTable } from "../db/tables.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError, errors } from "../errors.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import { checkEmail, checkNewPassword, checkUsername, normaliseEmail } from "./account-rules.ts";
import { hashPassword, isForeignHash, verifyAgainstNothing, verifyPassword } from "./passwords.ts";
import { Permissions } from "./permissions.ts";

/** An account as the API shows it (GET /api/self, /api/users/{id}). */
export type { User };

type UserRow = Pick<UserTable, "username" | "email" | "otp_active"> & { id: number };

export function toUser(row: UserRow): User {
  return { id: row.id, username: row.username, email: row.email, otpActive: row.otp_active === 1 };
}

/** Users: made with their global scopes (kept by permissions.ts), signed in, renamed, given a code. */
export class Accounts {
  /** `box` seals TOTP secrets at rest: the panel needs them back to check codes, so they cannot be hashed. */
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly permissions = new Permissions(db),
  ) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async byId(id: number): Promise<User | undefined> {
    const row = await this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async byEmail(email: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", normaliseEmail(email))
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async create(input: {
    username: string;
    email: string;
    password: string;
    scopes: string[];
  }): Promise<User> {
    const username = checkUsername(input.username);
    const email = checkEmail(input.email);
    const password_hash = await hashPassword(checkNewPassword(input.password));
    await this.assertFree({ username, email });
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto("users")
          .values({ username, email, password_hash, otp_active: 0, otp_last_step: 0, created_at: Date.now() })
          .returning(["id", "username", "email", "otp_active"])
          .executeTakeFirstOrThrow();
        await this.permissions.within(trx).setGlobalScopes(row.id, input.scopes);
        return toUser(row);
      });
    } catch (err) {
      // Two requests raced past assertFree; the database had the last word.
      if (isUniqueViolation(err))
        throw new ApiError(409, "ErrUserExists", "user already exists", undefined, { cause: err });
      throw err;
    }
  }

  /** Refuses a username or e-mail another user holds (409, metadata says which). */
  async assertFree(fields: { username?: string; email?: string }, exceptId?: number): Promise<void> {
    for (const field of ["username", "email"] as const) {
      const value = fields[field];
      if (value === undefined) continue;
      let q = this.db.selectFrom("users").select("id").where(field, "=", value);
      if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
      if (await q.executeTakeFirst()) {
        throw errors.userExists(field);
      }
    }
  }

  /**
   * Checks an e-mail and password. Unknown e-mails cost the same hashing work as
   * wrong passwords, so the answer and its timing do not reveal which it was.
   */
  async checkPassword(email: string, password: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", normaliseEmail(email))
      .executeTakeFirst();
    if (!row) return verifyAgainstNothing(password).then(() => undefined);
    if (!(await verifyPassword(row.password_hash, password))) return undefined;
    await this.rehashForeign(row.id, row.password_hash, password);
    return toUser(row);
  }

  /**
   * An imported bcrypt hash (issue 40) that just matched becomes ours (argon2id). Only if it is
   * still the stored one: a password changed meanwhile is left as it was set.
   */
  private async rehashForeign(userId: number, stored: string, password: string): Promise<void> {
    if (!isForeignHash(stored)) return;
    const password_hash = await hashPassword(password);
    await this.db
      .updateTable("users")
      .set({ password_hash })
      .where("id", "=", userId)
      .where("password_hash", "=", stored)
      .execute();
  }

  /**
   * A user brought from another panel (`outpost import`) with the password hash it kept there:
   * they sign in with the password they have (checked by passwords.ts, then rehashed to ours).
   */
  async createImported(input: {
    username: string;
    email: string;
    passwordHash: string;
    scopes: string[];
  }): Promise<User> {
    if (!isForeignHash(input.passwordHash)) throw errors.fieldRequired("password");
    const username = checkUsername(input.username);
    const email = checkEmail(input.email);
    await this.assertFree({ username, email });
    return await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("users")
        .values({
          username,
          email,
          password_hash: input.passwordHash,
          otp_active: 0,
          otp_last_step: 0,
          created_at: Date.now(),
        })
        .returning(["id", "username", "email", "otp_active"])
        .executeTakeFirstOrThrow();
      await this.permissions.within(trx).setGlobalScopes(row.id, input.scopes);
      return toUser(row);
    });
  }

  async checkPasswordOf(userId: number, password: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!row) return verifyAgainstNothing(password);
    if (!(await verifyPassword(row.password_hash, password))) return false;
    await this.rehashForeign(userId, row.password_hash, password);
    return true;
  }

  async update(userId: number, fields: { username?: string; email?: string }): Promise<void> {
    const changes: { username?: string; email?: string } = {};
    if (fields.username !== undefined) changes.username = checkUsername(fields.username);
    if (fields.email !== undefined) changes.email = checkEmail(fields.email);
    if (Object.keys(changes).length === 0) return;
    await this.assertFree(changes, userId);
    await this.db.updateTable("users").set(changes).where("id", "=", userId).execute();
  }

  async setPassword(userId: number, password: string, field = "password"): Promise<void> {
    const password_hash = await hashPassword(checkNewPassword(password, field));
    await this.db.updateTable("users").set({ password_hash }).where("id", "=", userId).execute();
  }

  async otpState(
    userId: number,
  ): Promise<{ secret: string | null; pendingSecret: string | null; active: boolean; lastStep: number }> {
    const row = await this.db
      .selectFrom("users")
      .select(["otp_secret", "otp_pending_secret", "otp_active", "otp_last_step"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return {
      secret: row.otp_secret === null ? null : this.box.open(row.otp_secret),
      pendingSecret: row.otp_pending_secret === null ? null : this.box.open(row.otp_pending_secret),
      active: row.otp_active === 1,
      lastStep: Number(row.otp_last_step),
    };
  }

  async setOtp(
    userId: number,
    state: { secret?: string | null; pendingSecret?: string | null; active?: boolean; lastStep?: number },
  ): Promise<void> {
    const set: Partial<
      Pick<UserTable, "otp_secret" | "otp_pending_secret" | "otp_active" | "otp_last_step">
    > = {};
    const seal = (secret: string | null) => (secret === null ? null : this.box.seal(secret));
    if (state.secret !== undefined) set.otp_secret = seal(state.secret);
    if (state.pendingSecret !== undefined) set.otp_pending_secret = seal(state.pendingSecret);
    if (state.active !== undefined) set.otp_active = state.active ? 1 : 0;
    if (state.lastStep !== undefined) set.otp_last_step = state.lastStep;
    await this.db.updateTable("users").set(set).where("id", "=", userId).execute();
  }

  /**
   * Records a TOTP time step as used, and answers whether this call was the one
   * that did: one conditional UPDATE, so of two requests racing with the same
   * code exactly one wins, on SQLite and PostgreSQL alike (PostgreSQL re-checks
   * the WHERE clause on the row the first writer left).
   */
  async claimOtpStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable("users")
      .set({ otp_last_step: step })
      .where("id", "=", userId)
      .where("otp_last_step", "<", step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
