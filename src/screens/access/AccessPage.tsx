import { Trans } from "@lingui/react/macro";
import { NotPermitted } from "../../components/NotPermitted";
import { hasScope } from "../../state/scopes";
import { OidcProvidersSection } from "./OidcProvidersSection";
import { PresetsSection } from "./PresetsSection";
import { RolesSection } from "./RolesSection";
import "../../components/controls.css";
import "../../components/screen-head.css";
import "./access.css";

/**
 * Roles (global rights), permission presets (server rights) and the single sign-on providers whose
 * claims map to roles, for administrators (issue 39).
 */
export default function AccessPage() {
  if (!hasScope("admin")) return <NotPermitted />;
  return (
    <section className="panel access-screen" data-testid="access">
      <header className="screen-head">
        <h1 className="panel-title">
          <Trans>Roles and presets</Trans>
        </h1>
      </header>
      <RolesSection />
      <PresetsSection />
      <OidcProvidersSection />
    </section>
  );
}
