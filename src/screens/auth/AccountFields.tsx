import { t } from "@lingui/core/macro";
import type { ComponentProps } from "react";
import { TextField } from "../../components/TextField";

type FieldProps = Omit<ComponentProps<typeof TextField>, "label" | "type" | "autoComplete" | "required">;

/** The username a new account chooses (registration, invitation). */
export function UsernameField(props: FieldProps) {
  return <TextField label={t`Username`} autoComplete="username" required {...props} />;
}

/** A password being chosen, so password managers offer to make and keep one. */
export function NewPasswordField({ label = t`Password`, ...props }: FieldProps & { label?: string }) {
  return <TextField label={label} type="password" autoComplete="new-password" required {...props} />;
}
