import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import * as auth from "../../api/auth";
import { finishSignIn } from "../../app/afterLogin";
import { USERNAME_MIN, validEmail, validPassword, validUsername } from "../../app/validation";
import { TextField } from "../../components/TextField";
import { config } from "../../state/config";
import "./auth.css";

export default function Register() {
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const enabled = config.value.registrationEnabled;

  const ok = {
    username: validUsername(username),
    email: validEmail(email),
    password: validPassword(password),
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (busy || !ok.username || !ok.email || !ok.password) return;
    setBusy(true);
    try {
      const answer = await auth.register(username.trim(), email.trim(), password);
      finishSignIn(answer?.scopes);
    } catch {
      // reported by the global handler (user exists, password rules, …)
    } finally {
      setBusy(false);
    }
  };

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
        <TextField
          label={t`Username`}
          autoComplete="username"
          required
          value={username}
          onValue={setUsername}
          invalid={tried && !ok.username}
          hint={t`At least ${USERNAME_MIN} characters`}
        />
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
        <TextField
          label={t`Password`}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onValue={setPassword}
          invalid={tried && !ok.password}
        />
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
