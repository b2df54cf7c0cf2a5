import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { installMod, type ModSearchView, type ModSourceId, modVersions, searchMods } from "../../../api/mods";
import { TextField } from "../../../components/TextField";
import { toastError, toastSuccess } from "../../../components/toastStore";
import { Select } from "../tasks/SelectField";
import { sourceNames } from "./sourceNames";

/** Search one source (narrowed to the server's loader and game version by the panel) and install. */
export function ModSearch({
  serverId,
  sources,
  canInstall,
  onInstalled,
}: {
  serverId: string;
  sources: ModSourceId[];
  canInstall: boolean;
  onInstalled: () => Promise<void>;
}) {
  const [source, setSource] = useState<ModSourceId>(sources[0] ?? "modrinth");
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<ModSearchView>();
  const [searching, setSearching] = useState(false);
  const [installing, setInstalling] = useState<string>();

  const search = async (e: FormEvent) => {
    e.preventDefault();
    setSearching(true);
    try {
      setFound(await searchMods(serverId, source, query.trim()));
    } catch {
      // the global handler said why
    } finally {
      setSearching(false);
    }
  };

  const install = async (projectId: string, title: string) => {
    if (!found) return;
    setInstalling(projectId);
    try {
      const [newest] = await modVersions(serverId, found.source, projectId);
      if (!newest) {
        toastError(t`No version of ${title} fits this server's loader and game version`);
        return;
      }
      const { files } = await installMod(serverId, {
        source: found.source,
        projectId,
        versionId: newest.versionId,
      });
      const names = files.join(", ");
      toastSuccess(t`Installed: ${names}`);
      await onInstalled();
    } catch {
      // the global handler said why (a hash that did not match, a source that did not answer)
    } finally {
      setInstalling(undefined);
    }
  };

  return (
    <section className="mods-search" aria-label={t`Find mods and plugins`}>
      <form className="inline-form mods-search-form" onSubmit={search} data-testid="mods-search">
        {sources.length > 1 && (
          <Select
            label={t`Source`}
            value={source}
            onValue={(v) => setSource(v as ModSourceId)}
            options={sources.map((s) => ({ value: s, label: sourceNames[s] }))}
          />
        )}
        <TextField
          label={t`Name or keyword`}
          value={query}
          onValue={setQuery}
          maxLength={100}
          type="search"
        />
        <button type="submit" className="btn" disabled={searching}>
          <Trans>Search</Trans>
        </button>
      </form>
      {found &&
        (found.hits.length === 0 ? (
          <p className="muted">
            <Trans>Nothing found for this server's loader and game version.</Trans>
          </p>
        ) : (
          <ul className="mods-list" data-testid="mods-results">
            {found.hits.map((hit) => {
              const author = hit.author;
              const downloads = hit.downloads.toLocaleString();
              return (
                <li key={hit.projectId} className="mods-item" data-testid="mods-result">
                  <div className="mods-text">
                    <strong>{hit.title}</strong>
                    <span className="muted small">
                      {author ? t`by ${author} · downloads: ${downloads}` : t`Downloads: ${downloads}`}
                    </span>
                    <span className="small">{hit.description}</span>
                  </div>
                  {canInstall && (
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={installing !== undefined}
                      onClick={() => void install(hit.projectId, hit.title)}
                      data-testid="mods-install"
                    >
                      {installing === hit.projectId ? <Trans>Installing…</Trans> : <Trans>Install</Trans>}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        ))}
    </section>
  );
}
