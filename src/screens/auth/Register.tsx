import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { Link } from "wouter";
import * as auth from "../../api/auth";
import { finishSignIn } from "../../app/afterLogin";
import { validEmail, validPassword, validUsername } from "../../app/validation";
import { TextField } from "../../components/TextField";
import { config } from "../../state/config";
import { NewPasswordField, UsernameField } from "./AccountFields";
import { useFormSubmit } from "./useFormSubmit";
import "./auth.css";

export default function Register() {
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const enabled = config.value.registrationEnabled;

  const ok = {
    username: validUsername(username),
    email: validEmail(email),
    password: validPassword(password),
  };

  // Refusals (user exists, password rules, …) are reported by the global handler.
  const { tried, busy, submit } = useFormSubmit(ok.username && ok.email && ok.password, async () => {
    const answer = await auth.register(username.trim(), email.trim(), password);
    finishSignIn(answer?.scopes);
  });

  if (!enabled) {
    return (
      <div className="auth-card">
        <h1 className="auth-title">
          <Trans>Register</Trans>
        </h1>
        <p>
          <Trans>Registration is disabled on this panel.</Trans>
        </p>
        <p className="auth-alt">
          <Link href="/auth/login">
            <Trans>Back to login</Trans>
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="auth-card">
      <h1 className="auth-title">
        <Trans>Register</Trans>
      </h1>
      <form onSubmit={submit} className="auth-form" noValidate>
        <UsernameField value={username} onValue={setUsername} invalid={tried && !ok.username} />
        <TextField
          label={t`Email`}
          type="email"
          autoComplete="email"
          required
          value={email}
          onValue={setEmail}
          invalid={tried && !ok.email}
          hint={tried && !ok.email ? t`Enter a valid email address` : undefined}
        />
        <NewPasswordField value={password} onValue={setPassword} invalid={tried && !ok.password} />
        <button type="submit" className="btn color-primary block" disabled={busy}>
          <Trans>Register</Trans>
        </button>
        <p className="auth-alt">
          <Trans>Already have an account?</Trans>{" "}
          <Link href="/auth/login">
            <Trans>Login</Trans>
          </Link>
        </p>
      </form>
    </div>
  );
}
