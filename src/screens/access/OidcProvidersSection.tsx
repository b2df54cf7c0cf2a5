import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
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
import { confirmAsync } from "../../components/confirmStore";
import { Spinner } from "../../components/Spinner";
import { toastSuccess } from "../../components/toastStore";
import { OidcProviderForm } from "./OidcProviderForm";

/**
 * Single sign-on providers (OpenID Connect, issue 39): each shows as a button on the login page
 * and sends people back to its redirect address, which the administrator registers at the
 * provider (the panel's public URL, so it reads that setting).
 */
export function OidcProvidersSection() {
  const { data: providers, reload } = useLoad((signal) => listOidcProviders({ signal }), []);
  const roles = useLoad((signal) => listRoles({ signal }), []);
  const site = useLoad((signal) => getSettingAnswer<string>("panel.settings.masterUrl", { signal }), []);
  const [editing, setEditing] = useState<number | "new">();
  const base = String(site.data?.value ?? window.location.origin).replace(/\/+$/, "");

  const save = async (id: number | "new", body: OidcProviderBody) => {
    try {
      const saved = id === "new" ? await createOidcProvider(body) : await updateOidcProvider(id, body);
      const name = saved.name;
      toastSuccess(t`Provider ${name} saved`);
      setEditing(undefined);
      reload();
    } catch {
      // the global handler said why
    }
  };
  const remove = async (provider: OidcProviderView) => {
    const name = provider.name;
    const yes = await confirmAsync({
      title: t`Delete the provider ${name}?`,
      body: t`No one can sign in with it any more; the accounts stay.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await deleteOidcProvider(provider.id);
      reload();
    } catch {
      // the global handler said why
    }
  };
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
      {!providers ? (
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
                <div className="access-actions">
                  <button
                    type="button"
                    className="btn btn-outline btn-small"
                    disabled={!roles.data}
                    onClick={() => setEditing(provider.id)}
                    data-testid="oidc-edit"
                  >
                    <Trans>Edit</Trans>
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline btn-small color-error"
                    onClick={() => void remove(provider)}
                    data-testid="oidc-delete"
                  >
                    <Trans>Delete</Trans>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
