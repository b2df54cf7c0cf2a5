import { Trans } from "@lingui/react/macro";
import "./auth.css";

// The invite flow's content is not specified yet (spec §2.1); the route exists so links work.
export default function Invite() {
  return (
    <div className="auth-card" data-testid="invite">
      <h1 className="auth-title">
        <Trans>Invitation</Trans>
      </h1>
    </div>
  );
}
