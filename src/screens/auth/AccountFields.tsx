import { t } from "@lingui/core/macro";
import type { ComponentProps } from "react";
import { USERNAME_MIN } from "../../app/validation";
import { TextField } from "../../components/TextField";

type FieldProps = Omit<ComponentProps<typeof TextField>, "label" | "type" | "autoComplete" | "required">;

/**
 * The username a new account chooses (registration, invitation, an admin's new user), with the
 * rules shown under it from the start (the panel's own rules: server/panel/account-rules.ts).
 */
export function UsernameField(props: FieldProps) {
  return (
    <TextField
      label={t`Username`}
      autoComplete="username"
      required
      maxLength={100}
      hint={t`At least ${USERNAME_MIN} characters: letters, digits, . _ ~ -`}
      {...props}
    />
  );
}

/** A password being chosen, so password managers offer to make and keep one. */
export function NewPasswordField({ label = t`Password`, ...props }: FieldProps & { label?: string }) {
  return <TextField label={label} type="password" autoComplete="new-password" required {...props} />;
}
