import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import {
  createOidcProvider,
  deleteOidcProvider,
  listOidcProviders,
  type OidcProviderBody,
  type OidcProviderView,
  updateOidcProvider,
} from "../../api/oidc";
import { listRoles } from "../../api/roles";
import { getSettingAnswer } from "../../api/settings";
import { useLoad } from "../../app/useLoad";
import { Spinner } from "../../components/Spinner";
import { OidcProviderForm } from "./OidcProviderForm";
import { EditDeleteButtons, useScopeSetList } from "./scopeSetList";

/**
 * Single sign-on providers (OpenID Connect, issue 39): each shows as a button on the login page
 * and sends people back to its redirect address, which the administrator registers at the
 * provider (the panel's public URL, so it reads that setting).
 */
export function OidcProvidersSection() {
  const { data: providers, reload } = useLoad((signal) => listOidcProviders({ signal }), []);
  const roles = useLoad((signal) => listRoles({ signal }), []);
  const site = useLoad((signal) => getSettingAnswer<string>("panel.settings.masterUrl", { signal }), []);
  const base = String(site.data?.value ?? window.location.origin).replace(/\/+$/, "");
  const { editing, setEditing, save, remove } = useScopeSetList<number, OidcProviderBody>({
    create: createOidcProvider,
    update: updateOidcProvider,
    delete: deleteOidcProvider,
    reload,
    saved: (name) => t`Provider ${name} saved`,
    deleting: (name) => ({
      title: t`Delete the provider ${name}?`,
      body: t`No one can sign in with it any more; the accounts stay.`,
    }),
  });
  const form = (initial?: OidcProviderView) => (
    <OidcProviderForm
      initial={initial}
      roles={roles.data ?? []}
      onSave={(body) => save(initial?.id ?? "new", body)}
      onCancel={() => setEditing(undefined)}
    />
  );

  return (
    <section className="settings-block access-block" data-testid="oidc-providers">
      <header className="access-head">
        <h2 className="small-title">
          <Trans>Single sign-on</Trans>
        </h2>
        {editing === undefined && roles.data && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setEditing("new")}
            data-testid="oidc-add"
          >
            <Trans>Add provider</Trans>
          </button>
        )}
      </header>
      <p className="muted small">
        <Trans>
          People sign in with an OpenID Connect provider (Authentik, Keycloak, Google, Microsoft, GitLab…).
          Register the provider's redirect address there.
        </Trans>
      </p>
      {editing === "new" && form()}
      {!providers || !roles.data ? (
        <Spinner />
      ) : providers.length === 0 ? (
        <p className="muted">
          <Trans>No sign-in providers yet.</Trans>
        </p>
      ) : (
        <ul className="access-list">
          {providers.map((provider) => {
            const redirect = `${base}/auth/oidc/${provider.id}/callback`;
            return editing === provider.id ? (
              <li key={provider.id} className="access-item">
                {form(provider)}
              </li>
            ) : (
              <li key={provider.id} className="access-item" data-testid="oidc-provider">
                <div className="access-item-main">
                  <strong>{provider.name}</strong>
                  <span className="muted small oidc-wrap">{provider.issuer}</span>
                  <span className="muted small">
                    {provider.enabled ? <Trans>On the login page</Trans> : <Trans>Off</Trans>}
                    {provider.createAccounts && (
                      <>
                        {" · "}
                        <Trans>Creates accounts</Trans>
                      </>
                    )}
                  </span>
                  <span className="small oidc-wrap" data-testid="oidc-redirect">
                    <Trans>Redirect address: {redirect}</Trans>
                  </span>
                </div>
                <EditDeleteButtons
                  onEdit={() => setEditing(provider.id)}
                  onDelete={() => void remove(provider)}
                  deleteTestId="oidc-delete"
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
