import { Trans } from "@lingui/react/macro";
import { lazy, Suspense } from "react";
import { Spinner } from "../../components/Spinner";
import { hasScope } from "../../state/scopes";
import { twoFactorRequired, user } from "../../state/session";
import { AccountSection } from "./AccountSection";
import { NotificationsSection } from "./NotificationsSection";
import { OidcLinksSection } from "./OidcLinksSection";
import { PasskeysSection } from "./PasskeysSection";
import { PasswordSection } from "./PasswordSection";
import { PreferencesSection } from "./PreferencesSection";
import { SelfClientsSection } from "./SelfClientsSection";
import { SshKeysSection } from "./SshKeysSection";
import { TwoFactorSection } from "./TwoFactorSection";
import "./self.css";

// Loaded after the rest of the page: the account's own parts come first.
const SelfActivitySection = lazy(() => import("./SelfActivitySection"));

/**
 * The signed-in user's own page (spec §2.3): account details, password, two-factor sign-in,
 * OAuth clients, notifications, preferences and one's own activity. Each part shows only with the scope its calls need
 * (self.edit, self.clients; reference §2.5); preferences need only a login. SSH keys are for SFTP.
 */
export default function Self() {
  const me = user.value;
  const canEdit = hasScope("self.edit");
  // Until it is set up, the panel answers nothing else (guard.ts): enrolment first, alone.
  if (twoFactorRequired.value)
    return (
      <div className="self-page">
        <p className="offline-banner" role="alert" data-testid="two-factor-required">
          <Trans>This panel requires two-factor sign-in for your account. Set it up here to continue.</Trans>
        </p>
        <TwoFactorSection />
        {canEdit && <PasskeysSection />}
      </div>
    );
  return (
    <div className="self-page">
      {/* Keyed by the account, so the fields start from its values once they have loaded. */}
      {me ? <AccountSection key={`${me.username}|${me.email}`} canEdit={canEdit} /> : <Spinner />}
      {canEdit && <PasswordSection />}
      {canEdit && <TwoFactorSection />}
      {canEdit && <PasskeysSection />}
      {canEdit && <SshKeysSection />}
      {canEdit && <OidcLinksSection />}
      {hasScope("self.clients") && <SelfClientsSection />}
      {canEdit && <NotificationsSection />}
      <PreferencesSection />
      <Suspense fallback={null}>
        <SelfActivitySection />
      </Suspense>
    </div>
  );
}
