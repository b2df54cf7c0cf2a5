import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import { createUser } from "../../api/users";
import { USERNAME_MIN, USERNAME_PATTERN } from "../../app/validation";
import { NotPermitted } from "../../components/NotPermitted";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { hasScope } from "../../state/scopes";
import { NewPasswordField, UsernameField } from "../auth/AccountFields";
import "../../components/screen-head.css";
import "./users.css";

/** A new account, made by someone who administers users; it can sign in at once. */
export default function UserCreate() {
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();

  if (!hasScope("users.info.edit")) return <NotPermitted />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const user = await createUser({ username: username.trim(), email: email.trim(), password });
      toastSuccess(t`User ${user.username} created`);
      navigate(`/users/view/${user.id}`);
    } catch {
      // the global handler says why (taken name or e-mail, short password…)
      setBusy(false);
    }
  };

  return (
    <section className="panel user-create">
      <Link href="/users" className="back-link">
        <ScreenIcon name="back" size={18} className="flip-rtl" />
        <Trans>Users</Trans>
      </Link>
      <h1 className="panel-title">
        <Trans>New user</Trans>
      </h1>
      <p className="muted small">
        <Trans>
          The new user can sign in and manage their own account. Give them more on their page once created.
        </Trans>
      </p>
      <form className="user-form" onSubmit={submit} data-testid="user-create-form">
        <UsernameField
          value={username}
          onValue={setUsername}
          minLength={USERNAME_MIN}
          pattern={USERNAME_PATTERN}
          name="username"
        />
        <TextField
          label={t`E-mail`}
          type="email"
          autoComplete="off"
          required
          value={email}
          onValue={setEmail}
          maxLength={255}
          name="email"
        />
        <NewPasswordField
          value={password}
          onValue={setPassword}
          minLength={8}
          maxLength={1024}
          hint={t`At least 8 characters`}
          name="password"
        />
        <div className="form-actions">
          <button type="submit" className="btn" disabled={busy}>
            <ScreenIcon name="plus" size={18} />
            <Trans>Create user</Trans>
          </button>
        </div>
      </form>
    </section>
  );
}
