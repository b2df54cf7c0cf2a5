import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { type FormEvent, useEffect, useReducer } from "react";
import { Link, useLocation } from "wouter";
import { isApiError } from "../../api/errors";
import { getFeatures, listNodes } from "../../api/nodes";
import { createServer, type NewServerBody, newServerId, serverAction } from "../../api/servers";
import { getTemplate } from "../../api/templates";
import { reportSessionEnd } from "../../app/background";
import { handleApiError } from "../../app/errorHandler";
import { useLoad } from "../../app/useLoad";
import { NotPermitted } from "../../components/NotPermitted";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { hasScope, isAdmin } from "../../state/scopes";
import { user } from "../../state/session";
import { usableEnvironments } from "../nodes/environments";
import { EnvironmentStep } from "./create/EnvironmentStep";
import { SettingsStep } from "./create/SettingsStep";
import { TemplateStep } from "./create/TemplateStep";
import { UsersStep } from "./create/UsersStep";
import {
  canLeave,
  checkCreate,
  initialWizard,
  reachable,
  STEPS,
  type Step,
  wizardReducer,
} from "./create/wizard";
import { ActionIcon } from "./serverIcons";
import { useTemplateKit } from "./templateKit";
import "../../components/controls.css";
import "./servers.css";

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

/** Creates the server; 4 random bytes can collide: once more with a fresh id. Returns its id. */
async function createWithFreshId(body: NewServerBody): Promise<string> {
  const id = newServerId();
  try {
    await createServer(id, body, { exempt: [409] });
    return id;
  } catch (err) {
    if (!(isApiError(err) && err.code === "ErrServerAlreadyExists")) {
      if (isApiError(err) && err.status === 409) handleApiError(err);
      throw err;
    }
  }
  const again = newServerId();
  await createServer(again, body);
  return again;
}

/** The create-server wizard (spec §2.3): template, node and environment, users, settings. */
export default function ServerCreate() {
  const [, navigate] = useLocation();
  const me = user.value?.username;
  const [state, dispatch] = useReducer(wizardReducer, me, initialWizard);
  const kit = useTemplateKit();
  const allowed = hasScope("server.create");
  const seesNodes = hasScope("nodes.view");

  // The current user is pre-filled once known (the account may still be loading at first paint).
  useEffect(() => dispatch({ type: "me", username: me }), [me]);

  // Nodes: the list when the user may see it, else the local node.
  const nodeList = useLoad(seesNodes && (() => listNodes()), [seesNodes]);
  useEffect(() => {
    const local = [{ id: 0, name: t`Local node`, isLocal: true }];
    if (!seesNodes || nodeList.error !== undefined) dispatch({ type: "nodes", nodes: local });
    else if (nodeList.data)
      dispatch({
        type: "nodes",
        nodes: nodeList.data.map((n) => ({ id: n.id, name: n.name, isLocal: n.isLocal })),
      });
  }, [seesNodes, nodeList.data, nodeList.error]);

  // What the chosen node can run (asked once the node list is known).
  const features = useLoad(
    seesNodes &&
      state.nodes !== undefined &&
      (() =>
        getFeatures(state.nodeId).then(usableEnvironments, (err) => {
          reportSessionEnd(err);
          throw err;
        })),
    [state.nodeId, seesNodes, state.nodes !== undefined],
  );
  const available = !seesNodes || features.error !== undefined ? null : features.data;
  useEffect(() => dispatch({ type: "available", available }), [available]);

  if (!allowed) return <NotPermitted />;

  const pick = async (repo: number, name: string) => {
    dispatch({ type: "pick", repo, name });
    try {
      dispatch({ type: "picked", repo, name, template: await getTemplate(repo, name) });
    } catch {
      dispatch({ type: "pickFailed", repo, name });
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.step !== "settings") {
      dispatch({ type: "next" });
      return;
    }
    if (!state.template || !kit) return;
    const checked = checkCreate(state, kit, isAdmin.value);
    dispatch({ type: "checked", errors: checked.errors, nameMissing: checked.nameMissing });
    if (!checked.body) return;
    dispatch({ type: "creating", on: true });
    try {
      const id = await createWithFreshId(checked.body);
      const trimmed = checked.body.name;
      toastSuccess(t`Server ${trimmed} created`);
      // A server starts only once installed: begin now, and the view shows it installing. (A
      // refusal is left to the view, which offers Install.)
      if (state.installNow) await serverAction(id, "install", { exempt: true }).catch(() => undefined);
      navigate(`/servers/view/${id}`);
    } catch {
      // the global handler said why (e.g. a requirement the node does not meet)
      dispatch({ type: "creating", on: false });
    }
  };

  const { step, template } = state;
  const index = STEPS.indexOf(step);
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
                onClick={() => dispatch({ type: "goTo", step: s })}
                disabled={i === index || !reachable(state, s)}
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
          {step === "template" && <TemplateStep picked={state.picked} onPick={pick} />}
          {step === "environment" && template && (
            <EnvironmentStep
              template={template}
              nodes={state.nodes}
              nodeId={state.nodeId}
              onNode={(id) => dispatch({ type: "node", id })}
              available={state.available}
              envIndex={state.envIndex}
              onEnv={(index) => dispatch({ type: "env", index })}
            />
          )}
          {step === "users" && (
            <UsersStep users={state.users} onUsers={(users) => dispatch({ type: "users", users })} />
          )}
          {step === "settings" && <SettingsStep state={state} dispatch={dispatch} kit={kit} />}
          <div className="wizard-actions">
            {index > 0 && (
              <button type="button" className="btn color-neutral" onClick={() => dispatch({ type: "back" })}>
                <Trans>Back</Trans>
              </button>
            )}
            {step === "settings" ? (
              <button
                type="submit"
                className="btn"
                disabled={state.creating || !kit}
                data-testid="wizard-create"
              >
                {state.creating ? <Trans>Creating…</Trans> : <Trans>Create</Trans>}
              </button>
            ) : (
              <button type="submit" className="btn" disabled={!canLeave(state)} data-testid="wizard-next">
                {state.loadingTemplate ? <Trans>Loading…</Trans> : <Trans>Next</Trans>}
              </button>
            )}
          </div>
        </form>
      </section>
    </div>
  );
}
