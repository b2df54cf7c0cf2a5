import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { listOidcLinks, type OidcLinkView, removeOidcLink, startOidcLink } from "../../api/oidc";
import { confirmAsync } from "../../components/confirmStore";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { config } from "../../state/config";
import "../oauth/oauth-clients.css";
import "../servers/entry-list.css";

/**
 * The sign-in providers linked to this account (issue 39): link one (its sign-in page opens and
 * comes back here), or unlink it. Shown when the panel has a provider, or the account a link.
 */
export function OidcLinksSection() {
  const [links, setLinks] = useState<OidcLinkView[]>();
  const providers = config.value.oidcProviders ?? [];

  const reload = async () => {
    try {
      setLinks(await listOidcLinks());
    } catch {
      // reported globally
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the section mounts
  useEffect(() => {
    void reload();
  }, []);

  if (links && links.length === 0 && providers.length === 0) return null;
  const unlinked = providers.filter((p) => !links?.some((l) => l.providerId === p.id));

  const link = async (providerId: number) => {
    try {
      window.location.assign((await startOidcLink(providerId)).url);
    } catch {
      // reported globally
    }
  };

  const unlink = async (entry: OidcLinkView) => {
    const provider = entry.providerName;
    const yes = await confirmAsync({
      title: t`Unlink ${provider}?`,
      body: t`You can no longer sign in to this account with it.`,
      confirm: { text: t`Unlink`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    try {
      await removeOidcLink(entry.id);
      toastSuccess(t`${provider} unlinked`);
      await reload();
    } catch {
      // reported globally
    }
  };

  return (
    <Panel title={<Trans>Sign-in providers</Trans>} className="self-section">
      <p className="muted small">
        <Trans>Sign in to this account through your organisation's sign-in page once you link it here.</Trans>
      </p>
      {!links ? (
        <Spinner />
      ) : (
        <ul className="entry-list" data-testid="oidc-links">
          {links.map((entry) => (
            <li key={entry.id} className="client-entry" data-testid="oidc-link">
              <div className="client-entry-main">
                <span className="client-entry-name">{entry.providerName}</span>
                {entry.email && <span className="small muted">{entry.email}</span>}
              </div>
              <button
                type="button"
                className="icon-btn color-error"
                onClick={() => void unlink(entry)}
                aria-label={t`Unlink ${entry.providerName}`}
                data-testid="unlink-oidc"
              >
                <ScreenIcon name="trash" size={20} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="self-actions">
        {unlinked.map((provider) => {
          const name = provider.name;
          return (
            <button
              key={provider.id}
              type="button"
              className="btn"
              onClick={() => void link(provider.id)}
              data-testid="link-oidc"
            >
              <ScreenIcon name="link" size={18} />
              {t`Link ${name}`}
            </button>
          );
        })}
      </div>
    </Panel>
  );
}
