import { Trans } from "@lingui/react/macro";
import { Panel } from "../../components/Panel";
import { user } from "../../state/session";

// Basics only; password change, 2FA, OAuth clients and user settings come with the Self issue.
export default function Self() {
  const me = user.value;
  return (
    <Panel title={<Trans>Account</Trans>}>
      {me ? (
        <dl className="details">
          <div>
            <dt>
              <Trans>Username</Trans>
            </dt>
            <dd data-testid="self-username">{me.username}</dd>
          </div>
          <div>
            <dt>
              <Trans>Email</Trans>
            </dt>
            <dd data-testid="self-email">{me.email}</dd>
          </div>
        </dl>
      ) : (
        <p className="muted">
          <Trans>Loading…</Trans>
        </p>
      )}
      <p className="muted">
        <Trans>More account settings are coming soon.</Trans>
      </p>
    </Panel>
  );
}
