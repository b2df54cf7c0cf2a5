import { i18n, type MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { Link, useLocation } from "wouter";
import type { Environment, VariableValue } from "../../../server/templates/index.ts";
import type { ApiError } from "../../api/errors";
import { isApiError } from "../../api/errors";
import { getFeatures, listNodes } from "../../api/nodes";
import { createServer, newServerId, serverAction } from "../../api/servers";
import {
  type FullTemplate,
  getTemplate,
  listAllTemplates,
  listTemplates,
  type RepoListing,
} from "../../api/templates";
import { reportSessionEnd } from "../../app/background";
import { handleApiError } from "../../app/errorHandler";
import { Icon } from "../../components/icons";
import { NotPermitted } from "../../components/NotPermitted";
import { Spinner } from "../../components/Spinner";
import { Switch } from "../../components/Switch";
import { ScreenIcon } from "../../components/screenIcons";
import { TextField } from "../../components/TextField";
import { toastSuccess } from "../../components/toastStore";
import { errorMessage } from "../../i18n/errorMessages";
import { hasScope, isAdmin } from "../../state/scopes";
import { user } from "../../state/session";
import { usableEnvironments } from "../nodes/environments";
import { RepoErrorNotice } from "../templates/RepoErrorNotice";
import { repoTitle } from "../templates/repoTitle";
import { LimitsFields, type LimitTexts, limitTexts, readLimits } from "./LimitsFields";
import { ActionIcon, ServerTypeIcon } from "./serverIcons";
import { useTemplateKit } from "./templateKit";
import { checkValues, shownGroups, type Values, VariablesForm } from "./VariablesForm";
import "../../components/controls.css";
import "./servers.css";

type Step = "template" | "environment" | "users" | "settings";
const STEPS: Step[] = ["template", "environment", "users", "settings"];

function stepLabel(step: Step): string {
  switch (step) {
    case "template":
      return t`Template`;
    case "environment":
      return t`Environment`;
    case "users":
      return t`Users`;
    default:
      return t`Settings`;
  }
}

/** A repo listing's error as text (its code's translation, else the server's words). */
export function errorText(err: ApiError | undefined): string {
  if (!err) return t`The templates of this repository could not be listed.`;
  const text = errorMessage(err.code);
  // Built apart from the call: Lingui's extractor cannot read a spread inside `i18n._({…})`.
  const filled: MessageDescriptor | undefined = text && { ...text, values: err.metadata ?? {} };
  const translated = filled && i18n._(filled);
  // A code this catalog has no text for comes back as its id: the server's own words beat that.
  if (translated && translated !== filled.id) return translated;
  return err.msg || t`The templates of this repository could not be listed.`;
}

/** The variables the wizard shows: an egg's hidden ones (`user_viewable: false`) only to administrators. */
function formData(template: FullTemplate) {
  const data = template.data ?? {};
  const hidden = new Set(isAdmin.value ? [] : (template.egg?.hidden ?? []));
  return Object.fromEntries(Object.entries(data).filter(([name]) => !hidden.has(name)));
}

/** The environments a template offers (reference §6): its list, or its one environment. */
export function templateEnvironments(template: Pick<FullTemplate, "environment" | "supportedEnvironments">) {
  return template.supportedEnvironments?.length ? template.supportedEnvironments : [template.environment];
}

function environmentName(env: Environment): string {
  if (env.type === "host") return t`Host (runs directly on the node)`;
  return env.image ? t`Docker (${env.image})` : t`Docker`;
}

interface NodeChoice {
  id: number;
  name: string;
  isLocal?: boolean;
}

// ---------------------------------------------------------------- step 1: template

function TemplateStep({
  picked,
  onPick,
}: {
  picked: { repo: number; name: string } | undefined;
  onPick: (repo: number, name: string) => void;
}) {
  const [repos, setRepos] = useState<RepoListing[]>();
  const [failed, setFailed] = useState(false);
  const [retrying, setRetrying] = useState<ReadonlySet<number>>(new Set());
  const [filter, setFilter] = useState("");
  const allowed = hasScope("templates.view");

  useEffect(() => {
    if (!allowed) return;
    let live = true;
    listAllTemplates()
      .then((r) => live && setRepos(r))
      .catch((err) => {
        reportSessionEnd(err);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [allowed]);

  if (!allowed) {
    return (
      <p className="srv-note">
        <Trans>Your account may not list templates, so it cannot create servers from them.</Trans>
      </p>
    );
  }
  if (failed) {
    return (
      <p className="muted">
        <Trans>The templates could not be loaded.</Trans>
      </p>
    );
  }
  if (!repos) return <Spinner />;
  // A repository that could not be read is fetched again at once (?retry), as on the Templates page.
  const retry = (id: number) => {
    setRetrying((r) => new Set(r).add(id));
    const done = (change: Partial<RepoListing>) => {
      setRepos((all) => all?.map((r) => (r.id === id ? { ...r, ...change } : r)));
      setRetrying((r) => new Set([...r].filter((x) => x !== id)));
    };
    listTemplates(id, { exempt: true, query: { retry: true } }).then(
      (templates) => done({ templates: Array.isArray(templates) ? templates : [], error: undefined }),
      (err) => {
        reportSessionEnd(err);
        if (isApiError(err)) done({ error: err });
        else done({});
      },
    );
  };
  const needle = filter.trim().toLowerCase();
  const matches = (tpl: RepoListing["templates"][number]) =>
    !needle || [tpl.name, tpl.display, tpl.type].some((s) => s?.toLowerCase().includes(needle));
  const total = repos.reduce((n, r) => n + r.templates.length, 0);
  return (
    <div className="tpl-step">
      <div className="srv-search">
        <Icon name="search" size={18} />
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          placeholder={t`Filter templates`}
          aria-label={t`Filter templates`}
          data-testid="template-search"
        />
      </div>
      {total === 0 && !repos.some((r) => r.error) && (
        <p className="muted">
          <Trans>There are no templates yet.</Trans>
        </p>
      )}
      {repos.map((repo) => {
        const shown = repo.templates.filter(matches);
        if (!repo.error && shown.length === 0 && (needle || repo.templates.length === 0)) return null;
        return (
          <section key={repo.id} className="tpl-repo" data-testid="template-repo">
            <h2 className="small-title">{repoTitle(repo)}</h2>
            {repo.error && (
              <RepoErrorNotice
                error={repo.error}
                busy={retrying.has(repo.id)}
                onRetry={() => retry(repo.id)}
              />
            )}
            {shown.length > 0 && (
              <ul className="tpl-list">
                {shown.map((tpl) => {
                  const selected = picked?.repo === repo.id && picked.name === tpl.name;
                  return (
                    <li key={tpl.name}>
                      <button
                        type="button"
                        className="tpl-item"
                        aria-pressed={selected}
                        onClick={() => onPick(repo.id, tpl.name)}
                        data-testid="template-item"
                      >
                        <ServerTypeIcon type={tpl.type} icon={tpl.icon} size={36} />
                        <span className="tpl-item-main">
                          <span className="tpl-item-name">{tpl.display || tpl.name}</span>
                          <span className="muted small">{tpl.name}</span>
                        </span>
                        {selected && <ActionIcon name="check" />}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

// ---------------------------------------------------------------- step 2: node and environment

function EnvironmentStep({
  template,
  nodes,
  nodeId,
  onNode,
  available,
  envIndex,
  onEnv,
}: {
  template: FullTemplate;
  nodes: NodeChoice[] | undefined;
  nodeId: number;
  onNode: (id: number) => void;
  available: string[] | null | undefined;
  envIndex: number;
  onEnv: (i: number) => void;
}) {
  const envs = templateEnvironments(template);
  return (
    <div className="env-step">
      <div className="field">
        <label htmlFor="wizard-node">
          <Trans>Node</Trans>
        </label>
        {nodes === undefined ? (
          <Spinner />
        ) : (
          <div className="field-box">
            <select
              id="wizard-node"
              value={String(nodeId)}
              onChange={(e) => onNode(Number(e.currentTarget.value))}
              disabled={nodes.length < 2}
            >
              {nodes.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.isLocal ? t`${n.name} (local)` : n.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {available === null && hasScope("nodes.view") && (
        <p className="srv-note">
          <Trans>The node did not say which environments it offers; the server may be refused.</Trans>
        </p>
      )}
      <fieldset className="env-choices">
        <legend>
          <Trans>Environment</Trans>
        </legend>
        {available === undefined ? (
          <Spinner />
        ) : (
          envs.map((env, i) => {
            const offered = !available || available.includes(env.type);
            const isDefault =
              env.type === template.environment.type && envs.findIndex((e) => e.type === env.type) === i;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: environments have no id; the list is fixed per template
              <label key={i} className={offered ? "env-choice" : "env-choice env-unavailable"}>
                <input
                  type="radio"
                  name="environment"
                  checked={envIndex === i}
                  disabled={!offered}
                  onChange={() => onEnv(i)}
                />
                <span className="env-choice-main">
                  <span className="env-choice-name">
                    {environmentName(env)}
                    {isDefault && (
                      <span className="tag" data-testid="env-default">
                        <Trans>Default</Trans>
                      </span>
                    )}
                  </span>
                  {!offered && (
                    <span className="muted small">
                      <Trans>Not offered by this node</Trans>
                    </span>
                  )}
                </span>
              </label>
            );
          })
        )}
      </fieldset>
    </div>
  );
}

// ---------------------------------------------------------------- step 3: users

function UsersStep({ users, onUsers }: { users: string[]; onUsers: (u: string[]) => void }) {
  const [entry, setEntry] = useState("");
  const add = () => {
    const name = entry.trim();
    if (name && !users.includes(name)) onUsers([...users, name]);
    setEntry("");
  };
  return (
    <div className="users-step">
      <p className="muted">
        <Trans>These users get the usual server permissions: console, files, start and stop.</Trans>
      </p>
      <div className="users-add">
        <TextField
          label={t`Username`}
          value={entry}
          onValue={setEntry}
          autoComplete="off"
          maxLength={100}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn color-neutral" onClick={add} disabled={!entry.trim()}>
          <ScreenIcon name="plus" size={18} />
          <Trans>Add</Trans>
        </button>
      </div>
      {users.length === 0 ? (
        <p className="muted small">
          <Trans>No users: only administrators will see this server.</Trans>
        </p>
      ) : (
        <ul className="chips" data-testid="wizard-user-list">
          {users.map((u) => (
            <li key={u} className="chip">
              <ActionIcon name="user" size={16} />
              <span>{u}</span>
              <button
                type="button"
                className="icon-btn"
                aria-label={t`Remove ${u}`}
                onClick={() => onUsers(users.filter((x) => x !== u))}
              >
                <Icon name="close" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

// ---------------------------------------------------------------- the wizard

export default function ServerCreate() {
  const [, navigate] = useLocation();
  const [step, setStep] = useState<Step>("template");
  const [picked, setPicked] = useState<{ repo: number; name: string }>();
  const [template, setTemplate] = useState<FullTemplate>();
  const [loadingTemplate, setLoadingTemplate] = useState(false);
  const [nodes, setNodes] = useState<NodeChoice[]>();
  const [nodeId, setNodeId] = useState(0);
  // undefined: asking; null: not known (all offered); list: what the node runs
  const [available, setAvailable] = useState<string[] | null | undefined>(undefined);
  const [envIndex, setEnvIndex] = useState(0);
  const [users, setUsers] = useState<string[]>(() => (user.value ? [user.value.username] : []));
  const [name, setName] = useState("");
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [nameError, setNameError] = useState<string>();
  const [creating, setCreating] = useState(false);
  const [installNow, setInstallNow] = useState(true);
  const [limitTextsNow, setLimitTexts] = useState<LimitTexts>(() => limitTexts(undefined));
  const kit = useTemplateKit();
  const allowed = hasScope("server.create");
  const me = user.value?.username;

  // The current user is pre-filled once known (the account may still be loading at first paint).
  useEffect(() => {
    if (me) setUsers((u) => (u.length === 0 ? [me] : u));
  }, [me]);

  // Nodes: the list when the user may see it, else the local node.
  useEffect(() => {
    if (!hasScope("nodes.view")) {
      setNodes([{ id: 0, name: t`Local node`, isLocal: true }]);
      return;
    }
    let live = true;
    listNodes()
      .then((list) => {
        if (!live) return;
        setNodes(list.map((n) => ({ id: n.id, name: n.name, isLocal: n.isLocal })));
        const local = list.find((n) => n.isLocal) ?? list[0];
        if (local) setNodeId(local.id);
      })
      .catch(() => live && setNodes([{ id: 0, name: t`Local node`, isLocal: true }]));
    return () => {
      live = false;
    };
  }, []);

  // What the chosen node can run.
  useEffect(() => {
    if (!hasScope("nodes.view")) {
      setAvailable(null);
      return;
    }
    let live = true;
    setAvailable(undefined);
    getFeatures(nodeId)
      .then((f) => live && setAvailable(usableEnvironments(f)))
      .catch((err) => {
        reportSessionEnd(err);
        if (live) setAvailable(null);
      });
    return () => {
      live = false;
    };
  }, [nodeId]);

  const envs = useMemo(() => (template ? templateEnvironments(template) : []), [template]);

  // Keep the environment choice on one the node offers, preferring the template's default.
  useEffect(() => {
    if (!template || available === undefined) return;
    const offered = (i: number) => !available || available.includes(envs[i].type);
    if (envs[envIndex] && offered(envIndex)) return;
    const preferred = envs.findIndex((e, i) => e.type === template.environment.type && offered(i));
    const first = envs.findIndex((_, i) => offered(i));
    setEnvIndex(preferred >= 0 ? preferred : Math.max(first, 0));
  }, [template, available, envs, envIndex]);

  if (!allowed) return <NotPermitted />;

  const pick = async (repo: number, templateName: string) => {
    setPicked({ repo, name: templateName });
    setLoadingTemplate(true);
    try {
      const full = await getTemplate(repo, templateName);
      setTemplate(full);
      setLimitTexts(limitTexts(full.limits));
      setValues(Object.fromEntries(Object.entries(full.data ?? {}).map(([k, v]) => [k, v.value])));
      setErrors({});
      const def = templateEnvironments(full).findIndex((e) => e.type === full.environment.type);
      setEnvIndex(Math.max(def, 0));
    } catch {
      setPicked(undefined);
      setTemplate(undefined);
    } finally {
      setLoadingTemplate(false);
    }
  };

  const envOk =
    !!template &&
    available !== undefined &&
    !!envs[envIndex] &&
    (!available || available.includes(envs[envIndex].type));
  const canLeave: Record<Step, boolean> = {
    template: !!template && !loadingTemplate,
    environment: envOk,
    users: true,
    settings: true,
  };
  const index = STEPS.indexOf(step);
  const reachable = (i: number) => STEPS.slice(0, i).every((s) => canLeave[s]);
  const envType = envs[envIndex]?.type ?? "host";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (step !== "settings") {
      if (canLeave[step]) setStep(STEPS[index + 1]);
      return;
    }
    if (!template || !kit) return;
    const shownNames = shownGroups(kit, formData(template), template.groups, values, envType).flatMap(
      (g) => g.names,
    );
    const checked = checkValues(kit, template.data ?? {}, values, shownNames, template.egg?.rules);
    const trimmed = name.trim();
    setErrors(checked.errors);
    setNameError(trimmed ? undefined : t`Give the server a name`);
    const limits = readLimits(limitTextsNow);
    if (!trimmed || Object.keys(checked.errors).length || limits.invalid.length) return;
    const { readme: _readme, name: _templateName, limits: _templateLimits, ...definition } = template;
    const data = Object.fromEntries(
      Object.entries(template.data ?? {}).map(([k, v]) => [k, { ...v, value: checked.values[k] }]),
    );
    const body = {
      ...definition,
      name: trimmed,
      node: nodeId,
      users,
      environment: envs[envIndex],
      data,
      // Only administrators set limits (the panel refuses them from anyone else).
      ...(isAdmin.value && Object.keys(limits.limits).length ? { limits: limits.limits } : {}),
    };
    setCreating(true);
    let id = newServerId();
    try {
      try {
        await createServer(id, body, { exempt: [409] });
      } catch (err) {
        // 4 random bytes can collide: once more with a fresh id
        if (!(isApiError(err) && err.code === "ErrServerAlreadyExists")) {
          if (isApiError(err) && err.status === 409) handleApiError(err);
          throw err;
        }
        id = newServerId();
        await createServer(id, body);
      }
      toastSuccess(t`Server ${trimmed} created`);
      // A server starts only once installed: begin now, and the view shows it installing. (A
      // refusal is left to the view, which offers Install.)
      if (installNow) await serverAction(id, "install", { exempt: true }).catch(() => undefined);
      navigate(`/servers/view/${id}`);
    } catch {
      // the global handler said why (e.g. a requirement the node does not meet)
      setCreating(false);
    }
  };

  const setValue = (n: string, v: VariableValue) => {
    setValues((all) => ({ ...all, [n]: v }));
    setErrors((all) => {
      if (!all[n]) return all;
      const { [n]: _gone, ...rest } = all;
      return rest;
    });
  };

  return (
    <div className="wizard">
      <Link href="/servers" className="srv-back">
        <ScreenIcon name="back" size={18} className="flip-rtl" />
        <Trans>Servers</Trans>
      </Link>
      <section className="panel">
        <h1 className="panel-title">
          <Trans>Create server</Trans>
        </h1>
        <ol className="wizard-steps">
          {STEPS.map((s, i) => (
            <li key={s} className={i === index ? "current" : i < index ? "done" : undefined}>
              <button
                type="button"
                onClick={() => setStep(s)}
                disabled={i === index || !reachable(i)}
                aria-current={i === index ? "step" : undefined}
              >
                <span className="wizard-step-no">
                  {i < index ? <ActionIcon name="check" size={14} /> : i + 1}
                </span>
                <span className="wizard-step-name">{stepLabel(s)}</span>
              </button>
            </li>
          ))}
        </ol>
        <form onSubmit={submit} noValidate data-testid={`wizard-${step}`}>
          <h2 className="wizard-title">{stepLabel(step)}</h2>
          {step === "template" && <TemplateStep picked={picked} onPick={pick} />}
          {step === "environment" && template && (
            <EnvironmentStep
              template={template}
              nodes={nodes}
              nodeId={nodeId}
              onNode={setNodeId}
              available={available}
              envIndex={envIndex}
              onEnv={setEnvIndex}
            />
          )}
          {step === "users" && <UsersStep users={users} onUsers={setUsers} />}
          {step === "settings" && template && (
            <div className="settings-step">
              <TextField
                label={t`Server name *`}
                value={name}
                onValue={(v) => {
                  setName(v);
                  setNameError(undefined);
                }}
                maxLength={100}
                required
                invalid={!!nameError}
                hint={nameError}
                autoComplete="off"
                data-testid="server-name"
              />
              {kit ? (
                <VariablesForm
                  kit={kit}
                  data={formData(template)}
                  groups={template.groups}
                  values={values}
                  env={envType}
                  errors={errors}
                  onChange={setValue}
                />
              ) : (
                <Spinner />
              )}
              <Switch
                label={t`Install now`}
                checked={installNow}
                onChange={setInstallNow}
                hint={t`Runs the template's install steps as soon as the server is made. A server must be installed before it can start.`}
              />
              {isAdmin.value && <LimitsFields texts={limitTextsNow} onTexts={setLimitTexts} />}
            </div>
          )}
          <div className="wizard-actions">
            {index > 0 && (
              <button type="button" className="btn color-neutral" onClick={() => setStep(STEPS[index - 1])}>
                <Trans>Back</Trans>
              </button>
            )}
            {step === "settings" ? (
              <button type="submit" className="btn" disabled={creating || !kit} data-testid="wizard-create">
                {creating ? <Trans>Creating…</Trans> : <Trans>Create</Trans>}
              </button>
            ) : (
              <button type="submit" className="btn" disabled={!canLeave[step]} data-testid="wizard-next">
                {loadingTemplate ? <Trans>Loading…</Trans> : <Trans>Next</Trans>}
              </button>
            )}
          </div>
        </form>
      </section>
    </div>
  );
}
