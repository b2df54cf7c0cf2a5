import { ApiError, errors } from "../errors.ts";
import { minimumPasswordLength } from "./passwords.ts";

/**
 * The rules for account fields, shared by the API, the CLI and the invite flow.
 * Spec §5: username ≥ 5 characters; e-mail has something before and after an @
 * and a dot followed by at least 2 characters.
 */
const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s.]{2,}$/;
// Printable, and nothing that would need escaping in a URL path (reference §9.1, §18).
const usernamePattern = /^[A-Za-z0-9._~-]+$/;

/**
 * The password hash of an invited user who has not chosen a password yet. It
 * is no argon2 hash, so no password ever matches it, and it tells an invitee
 * who is still pending from a user with a password.
 */
export const pendingPasswordHash = "!invited";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkEmail(email: string, field = "email"): string {
  const value = normaliseEmail(email);
  if (!value) throw errors.fieldRequired(field);
  if (value.length > 255 || !emailPattern.test(value)) throw errors.fieldNotEmail(field);
  return value;
}

export function checkUsername(username: string, field = "username"): string {
  const value = username.trim();
  if (!value) throw errors.fieldRequired(field);
  if (value.length < 5 || value.length > 100) throw errors.fieldLength(field, 5, 100);
  if (!usernamePattern.test(value)) {
    throw new ApiError(400, "ErrFieldHasURICharacters", "${field} has characters that are not allowed", {
      field,
    });
  }
  return value;
}

export function checkNewPassword(password: string, field = "password"): string {
  if (!password) throw errors.fieldRequired(field);
  if (password.length < minimumPasswordLength) throw errors.passwordRequirements();
  if (password.length > 1024) throw errors.fieldLength(field, minimumPasswordLength, 1024);
  return password;
}

export const isEmailShaped = (value: string): boolean => emailPattern.test(normaliseEmail(value));
