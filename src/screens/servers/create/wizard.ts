import type { Environment, VariableValue } from "../../../../server/templates/index.ts";
import type { NewServerBody } from "../../../api/servers";
import type { FullTemplate } from "../../../api/templates";
import { type LimitTexts, limitTexts, readLimits } from "../limits";
import type { TemplateKit } from "../templateKit";
import { checkValues, shownGroups, type Values } from "../variables";

// The create-server wizard's state and rules (spec §2.3), apart from its screens: which step may
// be left, which environment stays chosen, and the request body the last step builds.

export type Step = "template" | "environment" | "users" | "settings";
export const STEPS: readonly Step[] = ["template", "environment", "users", "settings"];

export interface NodeChoice {
  id: number;
  name: string;
  isLocal?: boolean;
}

export interface WizardState {
  step: Step;
  picked?: { repo: number; name: string };
  template?: FullTemplate;
  loadingTemplate: boolean;
  nodes?: NodeChoice[];
  nodeId: number;
  /** What the chosen node runs: undefined while asking; null when not known (all offered). */
  available: string[] | null | undefined;
  envIndex: number;
  users: string[];
  name: string;
  /** The last Create found no name. */
  nameMissing: boolean;
  values: Values;
  /** Ports picked from the node's pool, by port variable (PortChoice.tsx); the rest the panel picks. */
  ports: Record<string, number>;
  errors: Record<string, string>;
  installNow: boolean;
  limits: LimitTexts;
  creating: boolean;
}

export type WizardAction =
  | { type: "goTo"; step: Step }
  | { type: "next" }
  | { type: "back" }
  | { type: "pick"; repo: number; name: string }
  | { type: "picked"; repo: number; name: string; template: FullTemplate }
  | { type: "pickFailed"; repo: number; name: string }
  | { type: "nodes"; nodes: NodeChoice[] }
  | { type: "node"; id: number }
  | { type: "available"; available: string[] | null | undefined }
  | { type: "env"; index: number }
  | { type: "me"; username: string | undefined }
  | { type: "users"; users: string[] }
  | { type: "name"; name: string }
  | { type: "value"; name: string; value: VariableValue }
  | { type: "port"; name: string; port: number }
  | { type: "installNow"; on: boolean }
  | { type: "limits"; texts: LimitTexts }
  | { type: "checked"; errors: Record<string, string>; nameMissing: boolean }
  | { type: "creating"; on: boolean };

/** The start: the signed-in user pre-filled as the server's user once known. */
export function initialWizard(me: string | undefined): WizardState {
  return {
    step: "template",
    loadingTemplate: false,
    nodeId: 0,
    available: undefined,
    envIndex: 0,
    users: me ? [me] : [],
    name: "",
    nameMissing: false,
    values: {},
    ports: {},
    errors: {},
    installNow: true,
    limits: limitTexts(undefined),
    creating: false,
  };
}

/** The environments a template offers (reference §6): its list, or its one environment. */
export function templateEnvironments(
  template: Pick<FullTemplate, "environment" | "supportedEnvironments">,
): Environment[] {
  return template.supportedEnvironments?.length ? template.supportedEnvironments : [template.environment];
}

const offeredBy = (available: string[] | null | undefined, env: Environment | undefined) =>
  !!env && (!available || available.includes(env.type));

/** Keeps the environment choice on one the node offers, preferring the template's default. */
function fitEnvironment(state: WizardState): WizardState {
  const { template, available, envIndex } = state;
  if (!template || available === undefined) return state;
  const envs = templateEnvironments(template);
  if (offeredBy(available, envs[envIndex])) return state;
  const preferred = envs.findIndex((e) => e.type === template.environment.type && offeredBy(available, e));
  const first = envs.findIndex((e) => offeredBy(available, e));
  const index = preferred >= 0 ? preferred : Math.max(first, 0);
  return index === envIndex ? state : { ...state, envIndex: index };
}

/** The chosen environment, when the node offers it. */
export function chosenEnvironment(state: WizardState): Environment | undefined {
  if (!state.template || state.available === undefined) return undefined;
  const env = templateEnvironments(state.template)[state.envIndex];
  return offeredBy(state.available, env) ? env : undefined;
}

/** Whether `step` is done enough to go on from it. */
export function canLeave(state: WizardState, step: Step = state.step): boolean {
  switch (step) {
    case "template":
      return !!state.template && !state.loadingTemplate;
    case "environment":
      return chosenEnvironment(state) !== undefined;
    default:
      return true;
  }
}

/** A step can be opened when every step before it can be left. */
export function reachable(state: WizardState, step: Step): boolean {
  return STEPS.slice(0, STEPS.indexOf(step)).every((s) => canLeave(state, s));
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case "goTo":
      return reachable(state, action.step) ? { ...state, step: action.step } : state;
    case "next": {
      const next = STEPS[STEPS.indexOf(state.step) + 1];
      return next && canLeave(state) ? { ...state, step: next } : state;
    }
    case "back": {
      const before = STEPS[STEPS.indexOf(state.step) - 1];
      return before ? { ...state, step: before } : state;
    }
    case "pick":
      return { ...state, picked: { repo: action.repo, name: action.name }, loadingTemplate: true };
    case "picked": {
      // An answer for a template picked before the last one is too late.
      if (state.picked?.repo !== action.repo || state.picked.name !== action.name) return state;
      const full = action.template;
      const def = templateEnvironments(full).findIndex((e) => e.type === full.environment.type);
      return fitEnvironment({
        ...state,
        template: full,
        loadingTemplate: false,
        limits: limitTexts(full.limits),
        values: Object.fromEntries(Object.entries(full.data ?? {}).map(([k, v]) => [k, v.value])),
        errors: {},
        ports: {},
        envIndex: Math.max(def, 0),
      });
    }
    case "pickFailed":
      if (state.picked?.repo !== action.repo || state.picked.name !== action.name) return state;
      return { ...state, picked: undefined, template: undefined, loadingTemplate: false };
    case "nodes": {
      const local = action.nodes.find((n) => n.isLocal) ?? action.nodes[0];
      return { ...state, nodes: action.nodes, nodeId: local ? local.id : state.nodeId };
    }
    case "node":
      return action.id === state.nodeId
        ? state
        : { ...state, nodeId: action.id, available: undefined, ports: {} };
    case "available":
      return fitEnvironment({ ...state, available: action.available });
    case "env":
      return { ...state, envIndex: action.index };
    case "me":
      return action.username && state.users.length === 0 ? { ...state, users: [action.username] } : state;
    case "users":
      return { ...state, users: action.users };
    case "name":
      return { ...state, name: action.name, nameMissing: false };
    case "value": {
      const { [action.name]: _gone, ...errors } = state.errors;
      return {
        ...state,
        values: { ...state.values, [action.name]: action.value },
        errors: action.name in state.errors ? errors : state.errors,
      };
    }
    case "port":
      return { ...state, ports: { ...state.ports, [action.name]: action.port } };
    case "installNow":
      return { ...state, installNow: action.on };
    case "limits":
      return { ...state, limits: action.texts };
    case "checked":
      return { ...state, errors: action.errors, nameMissing: action.nameMissing };
    case "creating":
      return { ...state, creating: action.on };
  }
}

/** The variables the wizard shows: an egg's hidden ones (`user_viewable: false`) only to administrators. */
export function formData(template: FullTemplate, asAdmin: boolean) {
  const data = template.data ?? {};
  const hidden = new Set(asAdmin ? [] : (template.egg?.hidden ?? []));
  return Object.fromEntries(Object.entries(data).filter(([name]) => !hidden.has(name)));
}

/** The list with a user added: trimmed, once (the same list when there is nothing to add). */
export function withUser(users: string[], entry: string): string[] {
  const name = entry.trim();
  return name && !users.includes(name) ? [...users, name] : users;
}

export interface CreateCheck {
  errors: Record<string, string>;
  nameMissing: boolean;
  /** The request body, when nothing is wrong. */
  body?: NewServerBody;
}

/**
 * The last step's check, and the POST body it leads to: the template's definition with the
 * typed values, the chosen node, environment and users, and limits (administrators only; the
 * panel refuses them from anyone else).
 */
export function checkCreate(state: WizardState, kit: TemplateKit, asAdmin: boolean): CreateCheck {
  const { template } = state;
  if (!template) return { errors: {}, nameMissing: false };
  const environment = templateEnvironments(template)[state.envIndex];
  const shownNames = shownGroups(
    kit,
    formData(template, asAdmin),
    template.groups,
    state.values,
    environment?.type ?? "host",
  ).flatMap((g) => g.names);
  const checked = checkValues(kit, template.data ?? {}, state.values, shownNames, template.egg?.rules);
  const name = state.name.trim();
  const limits = readLimits(state.limits);
  const result = { errors: checked.errors, nameMissing: !name };
  if (!name || Object.keys(checked.errors).length || limits.invalid.length) return result;
  const { readme: _readme, name: _templateName, limits: _templateLimits, ...definition } = template;
  const data = Object.fromEntries(
    Object.entries(template.data ?? {}).map(([k, v]) => [k, { ...v, value: checked.values[k] }]),
  );
  return {
    ...result,
    body: {
      ...definition,
      name,
      node: state.nodeId,
      users: state.users,
      environment,
      data,
      ...(Object.keys(state.ports).length ? { ports: state.ports } : {}),
      ...(asAdmin && Object.keys(limits.limits).length ? { limits: limits.limits } : {}),
    },
  };
}
