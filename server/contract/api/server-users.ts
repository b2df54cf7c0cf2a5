import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";
import { ServerIdParams } from "./servers.ts";

/** Wire shapes of /api/servers/{id}/user (reference §12.13) and of accepting an invite. */
export const ServerUserParams = Type.Object({
  id: ServerIdParams.properties.id,
  email: Type.String({ minLength: 1, maxLength: 255 }),
});

export const ServerUser = Type.Object({
  username: Type.String(),
  email: Type.String(),
  scopes: Type.Array(Type.String()),
  /** Present (true) while the user has not accepted the invitation. */
  invited: Type.Optional(Type.Boolean()),
});
export type ServerUser = Static<typeof ServerUser>;

export const ServerUserList = Type.Array(ServerUser);

export const ScopeList = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 });

/**
 * `scopes`, or `preset` (a preset's id, GET /api/permission-presets) in its place; with neither
 * (PufferPanel's client sends none) the user gets the default, the Viewer preset.
 */
export const ServerUserGrantBody = Type.Object({
  scopes: Type.Optional(ScopeList),
  preset: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type ServerUserGrantBody = Static<typeof ServerUserGrantBody>;

/**
 * The answer to PUT /api/servers/{id}/user/{email}:
 * - 204, no body: the scopes are set, and if the address was invited (new, or
 *   still pending from an earlier invitation) the invite link was e-mailed.
 * - 200 `{"invite": {"url": "<link>", "mailed": false}}`: the address was
 *   invited and the link was NOT e-mailed (no mail provider the panel can use
 *   is configured, or sending failed): the granting administrator hands it over.
 * - 200 `{"invite": {"mailed": false}}`: the same, but the granting user is no
 *   administrator. A link signs in as the invited account, which may hold grants
 *   elsewhere, so only an administrator or the mailbox ever receives one: an
 *   administrator must send it.
 * `mailed` is always false when present; it says so for clients that do not
 * read the status code.
 */
export const InviteAnswer = Type.Object({
  invite: Type.Object({ url: Type.Optional(Type.String()), mailed: Type.Literal(false) }),
});
export type InviteAnswer = Static<typeof InviteAnswer>;

export const InviteAcceptBody = Type.Object({
  token: secret(Type.String({ maxLength: 128 })),
  email: Type.String({ maxLength: 255 }),
  username: Type.String({ maxLength: 100 }),
  password: secret(Type.String({ maxLength: 1024 })),
});
export type InviteAcceptBody = Static<typeof InviteAcceptBody>;
