import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import { Link } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { isApiError } from "../../api/errors";
import { acceptInvite } from "../../api/serverUsers";
import { HOME_WHEN_IN } from "../../app/access";
import { handleApiError } from "../../app/errorHandler";
import { USERNAME_MIN, validUsername } from "../../app/validation";
import { beginSession } from "../../state/session";
import { NewPasswordField, UsernameField } from "./AccountFields";
import { useFormSubmit } from "./useFormSubmit";
import "./auth.css";
import "./invite.css";

const PASSWORD_MIN = 8;

/** The link's token and address, from `?token=…&email=…` (reference §12.13). */
function linkParams(): { token: string; email: string } {
  const query = new URLSearchParams(typeof location === "undefined" ? "" : location.search);
  return { token: query.get("token") ?? "", email: (query.get("email") ?? "").trim() };
}

/** A username suggestion from the address: its local part, in the characters usernames allow. */
function suggestedUsername(email: string): string {
  const local = email.split("@")[0].replace(/[^A-Za-z0-9._~-]/g, "");
  return local.length >= USERNAME_MIN ? local.slice(0, 100) : "";
}

function InvalidLink() {
  return (
    <div className="auth-card" data-testid="invite">
      <h1 className="auth-title">
        <Trans>Invitation</Trans>
      </h1>
      <p className="auth-problem" role="alert" data-testid="invite-invalid">
        <Trans>
          This invite link is not valid: it may have been used already, have expired (links last 7 days), or
          be incomplete. Ask the person who invited you for a new link.
        </Trans>
      </p>
      <p className="auth-alt">
        <Link href="/auth/login">
          <Trans>Go to login</Trans>
        </Link>
      </p>
    </div>
  );
}

/**
 * An invited user chooses a username and a password with the link they were given, and is
 * signed in. (The reference logs in with the token as a password and then changes it; here the
 * panel checks the token once and consumes it.)
 */
export default function Invite() {
  const link = useMemo(linkParams, []);
  const [username, setUsername] = useState(() => suggestedUsername(link.email));
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [invalid, setInvalid] = useState(!link.token || !link.email);

  const ok = {
    username: validUsername(username),
    password: password.length >= PASSWORD_MIN,
    confirm: confirm === password,
  };

  const { tried, busy, submit } = useFormSubmit(ok.username && ok.password && ok.confirm, async () => {
    try {
      const answer = await acceptInvite({
        token: link.token,
        email: link.email,
        username: username.trim(),
        password,
      });
      beginSession(answer?.scopes);
      navigate(HOME_WHEN_IN, { replace: true });
    } catch (err) {
      if (isApiError(err) && err.code === "ErrInviteLinkInvalid") setInvalid(true);
      // Other refusals (username taken or not allowed, password rules) are told as everywhere else.
      else if (isApiError(err) && err.status === 400) handleApiError(err);
      throw err;
    }
  });

  if (invalid) return <InvalidLink />;

  return (
    <div className="auth-card" data-testid="invite">
      <h1 className="auth-title">
        <Trans>Accept your invitation</Trans>
      </h1>
      <p className="auth-lead">
        <Trans>
          Choose a username and a password for <strong className="auth-email">{link.email}</strong>. You sign
          in with this e-mail address and the password.
        </Trans>
      </p>
      <form onSubmit={submit} className="auth-form" noValidate>
        <UsernameField value={username} onValue={setUsername} invalid={tried && !ok.username} />
        <NewPasswordField
          value={password}
          onValue={setPassword}
          invalid={tried && !ok.password}
          hint={t`At least ${PASSWORD_MIN} characters`}
        />
        <NewPasswordField
          label={t`Confirm password`}
          value={confirm}
          onValue={setConfirm}
          invalid={tried && !ok.confirm}
          hint={tried && !ok.confirm ? t`The passwords do not match` : undefined}
        />
        <button type="submit" className="btn color-primary block" disabled={busy}>
          <Trans>Create my account</Trans>
        </button>
      </form>
    </div>
  );
}
