import pg from "pg";
import { type Db, openDatabase } from "../../server/db/database.ts";
import { writesChannel } from "../../server/db/write-notifications.ts";
import { Accounts } from "../../server/panel/accounts.ts";
import { OAuthClients } from "../../server/panel/oauth-clients.ts";
import { newOtpSecret } from "../../server/panel/otp.ts";
import { joinScopes } from "../../server/panel/scopes.ts";
import { tokenHash } from "../../server/panel/tokens.ts";
import { SecretBox } from "../../server/secrets/secret-box.ts";
import type { PanelProcess } from "./panel-process.ts";

/**
 * Opens the running panel's own database (its SQLite file or its PostgreSQL
 * database) for the setup the API cannot do yet: OTP enrolment, OAuth2
 * clients, expiring a session. The panel process is still the thing under test.
 */
export async function withPanelDb<T>(panel: PanelProcess, work: (db: Db) => Promise<T>): Promise<T> {
  const opened = openDatabase({ databaseUrl: panel.databaseUrl, dataDir: panel.dataDir });
  try {
    const result = await work(opened.db);
    if (opened.dialect === "postgres" && panel.databaseUrl) await notificationsSent(panel.databaseUrl);
    return result;
  } finally {
    await opened.close();
  }
}

/**
 * A panel on PostgreSQL hears another connection's writes by notification, a
 * moment after their commit (server/db/write-notifications.ts). A notification
 * of our own, sent after the work and heard back, was queued behind the work's:
 * by then PostgreSQL has signalled the panel's listener too, so the test's next
 * call does not race the work's notification.
 */
async function notificationsSent(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`LISTEN ${writesChannel}`);
    const marker = `test ${process.pid} ${Date.now()}`;
    const heard = new Promise<void>((resolve) =>
      client.on("notification", (n) => n.payload === marker && resolve()),
    );
    await client.query("select pg_notify($1, $2)", [writesChannel, marker]);
    await heard;
  } finally {
    await client.end();
  }
}

async function userId(db: Db, email: string): Promise<number> {
  const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

/** The panel's own secret box: its key file in the panel's data folder. */
export function panelSecretBox(panel: PanelProcess): SecretBox {
  return SecretBox.forPanel(panel.dataDir, undefined);
}

/** Turns OTP on for a user with a fresh secret (and no code used yet), stored as the panel stores it; answers the secret. */
export function enableOtp(panel: PanelProcess, email: string): Promise<string> {
  const secret = newOtpSecret();
  return withPanelDb(panel, async (db) => {
    await new Accounts(db, panelSecretBox(panel)).setOtp(await userId(db, email), {
      secret,
      active: true,
      lastStep: 0,
    });
    return secret;
  });
}

/** An OAuth2 client owned by the user, made through the service layer as the Self screen will. */
export function createOAuthClient(
  panel: PanelProcess,
  email: string,
): Promise<{ clientId: string; secret: string }> {
  return withPanelDb(panel, async (db) => {
    const { client, secret } = await new OAuthClients(db).create({
      userId: await userId(db, email),
      name: "test client",
    });
    return { clientId: client.clientId, secret };
  });
}

/** Moves every session of a kind of this user into the past. */
export function expireSessions(panel: PanelProcess, email: string, kind: "session" | "otp"): Promise<void> {
  return withPanelDb(panel, async (db) => {
    await db
      .updateTable("sessions")
      .set({ expires_at: Date.now() - 1000 })
      .where("user_id", "=", await userId(db, email))
      .where("kind", "=", kind)
      .execute();
  });
}

/** When the session behind a token ends, as stored. */
export function sessionExpiry(panel: PanelProcess, token: string): Promise<number> {
  return withPanelDb(panel, async (db) => {
    const row = await db
      .selectFrom("sessions")
      .select("expires_at")
      .where("token_hash", "=", tokenHash(token))
      .executeTakeFirstOrThrow();
    return Number(row.expires_at);
  });
}

/** Moves the session behind one token into the past. */
export function expireSession(panel: PanelProcess, token: string): Promise<void> {
  return withPanelDb(panel, async (db) => {
    await db
      .updateTable("sessions")
      .set({ expires_at: Date.now() - 1000 })
      .where("token_hash", "=", tokenHash(token))
      .execute();
  });
}

export function setGlobalScopes(panel: PanelProcess, email: string, scopes: string[]): Promise<void> {
  return withPanelDb(panel, async (db) => {
    await db
      .updateTable("permissions")
      .set({ scopes: joinScopes(scopes) })
      .where("user_id", "=", await userId(db, email))
      .where("server_id", "=", "")
      .execute();
  });
}

export function storedSetting(panel: PanelProcess, key: string): Promise<unknown> {
  return withPanelDb(panel, async (db) => {
    const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
    return row ? JSON.parse(row.value) : undefined;
  });
}

/** The stored rows a test may inspect: session token hashes and a user's password hash. */
export function storedSecrets(
  panel: PanelProcess,
  email: string,
): Promise<{ sessions: string[]; passwordHash: string }> {
  return withPanelDb(panel, async (db) => {
    const id = await userId(db, email);
    const sessions = await db.selectFrom("sessions").select("token_hash").where("user_id", "=", id).execute();
    const user = await db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { sessions: sessions.map((s) => s.token_hash), passwordHash: user.password_hash };
  });
}

/** Sets a user's scopes on one server, as the server users screen will. */
export function setServerScopes(
  panel: PanelProcess,
  email: string,
  serverId: string,
  scopes: string[],
): Promise<void> {
  return withPanelDb(panel, async (db) => {
    const id = await userId(db, email);
    const value = joinScopes(scopes);
    await db
      .insertInto("permissions")
      .values({ user_id: id, server_id: serverId, scopes: value })
      .onConflict((oc) => oc.columns(["user_id", "server_id"]).doUpdateSet({ scopes: value }))
      .execute();
  });
}
