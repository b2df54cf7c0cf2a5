import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useCallback, useEffect, useState } from "react";
import { isApiError } from "../../../api/errors";
import { type InstalledMod, installMod, listMods, removeMod, type ServerModsView } from "../../../api/mods";
import { confirmAsync } from "../../../components/confirmStore";
import { Spinner } from "../../../components/Spinner";
import type { SectionProps } from "../sectionProps";
import { ModSearch } from "./ModSearch";
import { sourceNames } from "./sourceNames";
import "../../../components/controls.css";
import "./mods.css";
import { changeAndReload } from "../changeAndReload";

function InstalledEntry({
  mod,
  canEdit,
  busy,
  onUpdate,
  onRemove,
}: {
  mod: InstalledMod;
  canEdit: boolean;
  busy: boolean;
  onUpdate: () => void;
  onRemove: () => void;
}) {
  const update = mod.update?.versionNumber;
  const version = mod.versionNumber;
  return (
    <li className="mods-item" data-testid="mods-installed-item">
      <div className="mods-text">
        <strong>{mod.title ?? mod.file}</strong>
        <span className="muted small">
          {mod.source
            ? `${sourceNames[mod.source]} · ${version ?? ""} · ${mod.file}`
            : t`Not recognised by any source`}
        </span>
      </div>
      {canEdit && (
        <div className="mods-actions">
          {update && (
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={onUpdate}
              data-testid="mods-update"
            >
              <Trans>Update to {update}</Trans>
            </button>
          )}
          <button
            type="button"
            className="btn btn-outline btn-small color-error"
            disabled={busy}
            onClick={onRemove}
            data-testid="mods-remove"
          >
            <Trans>Remove</Trans>
          </button>
        </div>
      )}
    </li>
  );
}

/** A server's mods and plugins (issue 37): what its folder holds, updates, and the sources' search. */
export default function ModsSection({ server, can, active }: SectionProps) {
  const [view, setView] = useState<ServerModsView>();
  const [notOffered, setNotOffered] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = server.id;

  const load = useCallback(async () => {
    try {
      setView(await listMods(id, { exempt: [409] }));
    } catch (err) {
      if (isApiError(err) && err.code === "ErrModsNotOffered") setNotOffered(true);
      else throw err;
    }
  }, [id]);

  useEffect(() => {
    if (active) void load().catch(() => {});
  }, [active, load]);

  const act = (work: () => Promise<unknown>, done: string) => changeAndReload(work, done, load, setBusy);

  const update = (mod: InstalledMod) => {
    const { source, projectId, update: newer } = mod;
    if (!source || !projectId || !newer) return;
    const file = mod.file;
    void act(async () => {
      const { files } = await installMod(id, { source, projectId, versionId: newer.versionId });
      // The new version's file is in place: the old one goes, unless it was the same name.
      if (!files.includes(file)) await removeMod(id, file);
    }, t`Updated ${file}`);
  };

  const remove = async (mod: InstalledMod) => {
    const file = mod.file;
    const yes = await confirmAsync({
      title: t`Remove ${file}?`,
      body: t`The file is deleted from the server's folder; the server uses it no more after its next start.`,
      confirm: { text: t`Remove`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (yes) await act(() => removeMod(id, file), t`Removed ${file}`);
  };

  if (notOffered)
    return (
      <p className="muted" data-testid="mods-not-offered">
        <Trans>
          This server's template says nothing of mods or plugins, so there is nothing to install here.
        </Trans>
      </p>
    );
  if (!view) return <Spinner />;
  const { target } = view;
  const folder = target.folder;
  const loader = target.loader;
  const version = target.version || t`every game version`;
  const offered = view.sources.filter((s) => s.available).map((s) => s.id);
  const keyMissing = view.sources.some((s) => s.id === "curseforge" && s.reason === "key");
  const unreachable = view.unreachable.map((s) => sourceNames[s]).join(", ");
  return (
    <div className="mods-section" data-testid="mods">
      <p className="muted small" data-testid="mods-target">
        <Trans>
          Loader {loader}, {version}, in {folder}/
        </Trans>
      </p>
      {keyMissing && (
        <p className="muted small" data-testid="mods-curseforge-note">
          <Trans>CurseForge is not offered: an administrator has not set its API key.</Trans>
        </p>
      )}
      <ModSearch serverId={id} sources={offered} canInstall={can("server.mods.edit")} onInstalled={load} />
      <section aria-label={t`Installed`}>
        <h3 className="mods-heading">
          <Trans>In {folder}/</Trans>
        </h3>
        {unreachable && (
          <p className="muted small">
            <Trans>{unreachable} could not be asked which files it knows.</Trans>
          </p>
        )}
        {view.installed.length === 0 ? (
          <p className="muted">
            <Trans>Nothing installed yet.</Trans>
          </p>
        ) : (
          <ul className="mods-list" data-testid="mods-installed">
            {view.installed.map((mod) => (
              <InstalledEntry
                key={mod.file}
                mod={mod}
                canEdit={can("server.mods.edit")}
                busy={busy}
                onUpdate={() => update(mod)}
                onRemove={() => void remove(mod)}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
