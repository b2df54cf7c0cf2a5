import { type Static, Type } from "typebox";

export const UserView = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  otpActive: Type.Boolean(),
});
export type UserView = Static<typeof UserView>;

/** Change username/e-mail with the current password, or the password with password + newPassword. */
export const SelfUpdateBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 100 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  password: Type.String({ maxLength: 1024 }),
  newPassword: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type SelfUpdateBody = Static<typeof SelfUpdateBody>;
