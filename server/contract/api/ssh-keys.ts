import { type Static, Type } from "typebox";

/** One of the signed-in user's SSH keys for SFTP (issue 39). */
export const SshKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** As OpenSSH names the type: ssh-ed25519, ecdsa-sha2-nistp256…, ssh-rsa. */
  algorithm: Type.String(),
  bits: Type.Integer(),
  /** `SHA256:…`, as `ssh-keygen -l` prints it. */
  fingerprint: Type.String(),
  /** `<type> <base64>`, without the comment. */
  publicKey: Type.String(),
  createdAt: Type.Integer(),
  lastUsedAt: Type.Union([Type.Integer(), Type.Null()]),
});
export type SshKey = Static<typeof SshKey>;
export const SshKeyList = Type.Array(SshKey);

/** A key as `~/.ssh/id_ed25519.pub` holds it; the name defaults to the line's comment. */
export const SshKeyCreateBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  publicKey: Type.String({ minLength: 1, maxLength: 16_384 }),
});
export type SshKeyCreateBody = Static<typeof SshKeyCreateBody>;

export const SshKeyParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
