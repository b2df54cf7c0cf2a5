import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useEffect, useMemo, useState } from "react";
import { useLocation } from "wouter";
import type { Template } from "../../../server/templates/index.ts";
import {
  deleteServer,
  getDefinition,
  getTransferTargets,
  putDefinition,
  type Server,
  serverAction,
  type TransferTarget,
  transferServer,
} from "../../api/servers";
import { useDraft } from "../../app/useDraft";
import { useLoad } from "../../app/useLoad";
import { confirmAsync } from "../../components/confirmStore";
import { Spinner } from "../../components/Spinner";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { intlLocale } from "../../i18n/locales";
import { isAdmin } from "../../state/scopes";
import type { ServerLive } from "../../state/serverLive";
import { formatBytes, formatPercent } from "./format";
import { LimitsFields } from "./LimitsFields";
import { limitTexts, readLimits } from "./limits";
import { ActionIcon } from "./serverIcons";
import type { ServerCan } from "./serverScopes";
import { type TemplateKit, useTemplateKit } from "./templateKit";

export interface DefinitionCheck {
  /** The parsed document when it is valid. */
  value?: unknown;
  problems: { path: string; problem: string }[];
}

/** JSON syntax first, then the template format (every problem with its path). */
export function checkDefinition(kit: TemplateKit | undefined, text: string): DefinitionCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { problems: [{ path: "", problem: err instanceof Error ? err.message : String(err) }] };
  }
  if (!kit) return { value: parsed, problems: [] };
  const result = kit.parseTemplate(parsed);
  return result.ok ? { value: parsed, problems: [] } : { problems: result.problems };
}

function DefinitionEditor({
  id,
  canEdit,
  onSaved,
}: {
  id: string;
  canEdit: boolean;
  onSaved: (definition: { type?: string; icon?: string }) => void;
}) {
  const kit = useTemplateKit();
  const { data: saved, setData: setSaved } = useLoad(
    () => getDefinition(id).then((d) => JSON.stringify(d, null, 2)),
    [id],
  );
  const [text, setText] = useDraft(saved ?? "", id);
  const [saving, setSaving] = useState(false);

  const check = useMemo(() => checkDefinition(kit, text), [kit, text]);
  if (saved === undefined) return <Spinner />;
  const changed = text !== saved;
  const valid = check.problems.length === 0;

  const save = async () => {
    if (!valid || !changed) return;
    setSaving(true);
    try {
      await putDefinition(id, check.value);
      setSaved(text);
      const doc = check.value as { type?: string; icon?: string };
      onSaved({ type: doc.type, icon: doc.icon });
      toastSuccess(t`Definition saved`);
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="settings-block">
      <h2 className="small-title">
        <Trans>Definition</Trans>
      </h2>
      <p className="muted small">
        <Trans>
          The server's full definition: variables, install steps, run command, environment. It takes effect
          the next time the server starts.
        </Trans>
      </p>
      <textarea
        className={valid ? "json-editor" : "json-editor invalid"}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        readOnly={!canEdit}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        aria-label={t`Definition (JSON)`}
        aria-invalid={!valid || undefined}
        aria-describedby="definition-problems"
        rows={22}
        data-testid="definition-editor"
      />
      <div id="definition-problems" aria-live="polite">
        {!valid && (
          <ul className="problems" data-testid="definition-problems">
            {check.problems.slice(0, 20).map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id and are re-made on each edit
              <li key={i}>
                {p.path && <code>{p.path}</code>} {p.problem}
              </li>
            ))}
            {check.problems.length > 20 && (
              <li>
                <Trans>…and {check.problems.length - 20} more</Trans>
              </li>
            )}
          </ul>
        )}
      </div>
      {canEdit && (
        <div className="form-end">
          <button
            type="button"
            className="btn color-neutral"
            disabled={!changed || saving}
            onClick={() => setText(saved)}
          >
            <Trans>Revert</Trans>
          </button>
          <button
            type="button"
            className="btn"
            disabled={!changed || !valid || saving}
            onClick={() => void save()}
            data-testid="save-definition"
          >
            <ScreenIcon name="save" size={18} />
            <Trans>Save</Trans>
          </button>
        </div>
      )}
    </section>
  );
}

/** The server's limits, for administrators: saved into its definition (they apply at the next start). */
function LimitsEditor({ id, onSaved }: { id: string; onSaved: () => void }) {
  const { data: definition, setData: setDefinition } = useLoad(() => getDefinition(id), [id]);
  const [texts, setTexts] = useDraft(limitTexts(definition?.limits), id);
  const [saving, setSaving] = useState(false);

  if (!definition) return <Spinner />;
  const { limits, invalid } = readLimits(texts);
  const changed = JSON.stringify(limitTexts(limits)) !== JSON.stringify(limitTexts(definition.limits));

  const save = async () => {
    setSaving(true);
    try {
      const { limits: _old, ...rest } = definition;
      const next: Template = Object.keys(limits).length ? { ...rest, limits } : rest;
      await putDefinition(id, next);
      setDefinition(next);
      toastSuccess(t`Limits saved`);
      onSaved();
    } catch {
      // the global handler said why
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="settings-block">
      <LimitsFields texts={texts} onTexts={setTexts} titleClass="small-title" />
      <div className="form-end">
        <button
          type="button"
          className="btn"
          disabled={!changed || invalid.length > 0 || saving}
          onClick={() => void save()}
          data-testid="save-limits"
        >
          <ScreenIcon name="save" size={18} />
          <Trans>Save</Trans>
        </button>
      </div>
    </section>
  );
}

/** Moves the stopped server, its files and backups, to another node (administrators). */
function MoveToNode({
  server,
  live,
  onMoved,
}: {
  server: Server;
  live?: ServerLive;
  onMoved: (node: TransferTarget) => void;
}) {
  const [targets, setTargets] = useState<TransferTarget[]>();
  const [chosen, setChosen] = useState<number>();
  const [moving, setMoving] = useState(false);
  const locale = intlLocale(i18n.locale);

  useEffect(() => {
    let current = true;
    getTransferTargets(server.id)
      .then(({ nodes }) => {
        if (!current) return;
        setTargets(nodes);
        setChosen(nodes.find((n) => n.reachable)?.id);
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [server.id]);

  if (!targets) return <Spinner />;
  const target = targets.find((n) => n.id === chosen);
  const progress = moving ? live?.transfer.value : undefined;

  const move = async () => {
    if (!target) return;
    setMoving(true);
    try {
      await transferServer(server.id, target.id);
      const name = target.name;
      toastSuccess(t`Moved to ${name}`);
      onMoved(target);
    } catch {
      // the global handler said why
    } finally {
      setMoving(false);
    }
  };

  return (
    <section className="settings-block" data-testid="move-to-node">
      <h2 className="small-title">
        <Trans>Move to node</Trans>
      </h2>
      <p className="muted small">
        <Trans>Moves the stopped server with its files, backups and tasks to another node.</Trans>
      </p>
      <div className="move-row">
        <div className="field">
          <div className="field-box">
            <select
              value={chosen ?? ""}
              onChange={(e) => setChosen(Number(e.currentTarget.value))}
              disabled={moving || targets.length === 0}
              aria-label={t`Node`}
              data-testid="move-target"
            >
              {targets.map((node) => {
                const free = node.free === undefined ? "" : formatBytes(node.free, locale);
                return (
                  <option key={node.id} value={node.id} disabled={!node.reachable}>
                    {`${node.name} (${free ? t`${free} free` : t`Unreachable`})`}
                  </option>
                );
              })}
            </select>
          </div>
        </div>
        <button
          type="button"
          className="btn"
          disabled={!target?.reachable || moving}
          onClick={() => void move()}
          data-testid="move-server"
        >
          <Trans>Move to node</Trans>
        </button>
      </div>
      {moving && (
        <div className="move-progress" role="status" data-testid="move-progress">
          <progress
            max={Math.max(progress?.total ?? 0, 1)}
            value={Math.min(progress?.received ?? 0, progress?.total ?? 0)}
            aria-label={t`Move to node`}
          />
          <span className="small">
            {progress?.total ? formatPercent(progress.received, progress.total, locale) : <Spinner />}
          </span>
        </div>
      )}
    </section>
  );
}

/** Administration of one server: its limits, its definition, reload from disk, deletion. */
export function AdminSection({
  server,
  can,
  live,
  onChanged,
}: {
  server: Server;
  can: ServerCan;
  live?: ServerLive;
  onChanged: (changes: Partial<Server>) => void;
}) {
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  // Bumped when the limits are saved, so the definition editor reads the definition again.
  const [definitionVersion, setDefinitionVersion] = useState(0);

  const reload = async () => {
    setBusy(true);
    try {
      await serverAction(server.id, "reload");
      toastSuccess(t`Definition reloaded`);
    } catch {
      // the global handler said why
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const yes = await confirmAsync({
      title: t`Delete ${server.name}?`,
      body: t`The server and all its files are deleted on its node. This cannot be undone. A running server must be stopped first.`,
      confirm: { text: t`Delete`, color: "error" },
      cancel: { color: "neutral" },
    });
    if (!yes) return;
    setBusy(true);
    try {
      await deleteServer(server.id);
      toastSuccess(t`Server ${server.name} deleted`);
      navigate("/servers");
    } catch {
      setBusy(false);
    }
  };

  return (
    <div className="admin-section">
      {isAdmin.value && <LimitsEditor id={server.id} onSaved={() => setDefinitionVersion((v) => v + 1)} />}
      {can("server.definition.view") && (
        <DefinitionEditor
          key={definitionVersion}
          id={server.id}
          canEdit={can("server.definition.edit")}
          onSaved={(d) => onChanged({ type: d.type ?? server.type, icon: d.icon })}
        />
      )}
      {isAdmin.value && (
        <MoveToNode
          key={server.node.id}
          server={server}
          live={live}
          onMoved={(node) => onChanged({ node: { ...server.node, id: node.id, name: node.name } })}
        />
      )}
      {(can("server.reload") || can("server.delete")) && (
        <section className="settings-block">
          <h2 className="small-title">
            <Trans>Maintenance</Trans>
          </h2>
          <div className="maintenance">
            {can("server.reload") && (
              <div className="maintenance-row">
                <p className="muted small">
                  <Trans>
                    Read the definition again from the node's disk (after editing the file there).
                  </Trans>
                </p>
                <button
                  type="button"
                  className="btn color-neutral"
                  disabled={busy}
                  onClick={() => void reload()}
                >
                  <ActionIcon name="reload" size={18} />
                  <Trans>Reload</Trans>
                </button>
              </div>
            )}
            {can("server.delete") && (
              <div className="maintenance-row">
                <p className="muted small">
                  <Trans>Delete the server with its files.</Trans>
                </p>
                <button
                  type="button"
                  className="btn color-error"
                  disabled={busy}
                  onClick={() => void remove()}
                >
                  <ScreenIcon name="trash" size={18} />
                  <Trans>Delete server</Trans>
                </button>
              </div>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
