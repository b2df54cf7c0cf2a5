import { useState } from "react";
import { isApiError } from "../../api/errors";
import { handleApiError } from "../../app/errorHandler";
import { checkNodeForm, type FieldProblems, fieldOfError, type NodeFormValues } from "./nodeForm";

/** Statuses whose refusals the form shows itself (next to a field) before the global handler. */
export const FORM_EXEMPT = [400, 409] as const;

export interface NodeFormState {
  values: NodeFormValues;
  set: (change: Partial<NodeFormValues>) => void;
  /** Problems to show now: the client's after a first submit attempt, and the server's last answer. */
  problems: FieldProblems;
  /** Starts a submit: false (and shows why) when the client rules already refuse. */
  ready: () => boolean;
  /** Shows a refusal next to its field; anything else goes to the global handler. */
  refused: (err: unknown) => void;
  reset: (values: NodeFormValues) => void;
  dirty: boolean;
}

function focusFirstProblem(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(".node-form [aria-invalid]")?.focus());
}

export function useNodeForm(initial: () => NodeFormValues): NodeFormState {
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(values);
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<FieldProblems>({});
  const local = checkNodeForm(values);

  return {
    values,
    set: (change) => {
      setValues((v) => ({ ...v, ...change }));
      setServer({});
    },
    problems: { ...(tried ? local : {}), ...server },
    ready: () => {
      setTried(true);
      setServer({});
      if (Object.keys(local).length === 0) return true;
      focusFirstProblem();
      return false;
    },
    refused: (err) => {
      if (!isApiError(err)) return;
      let field = fieldOfError(err.code, err.metadata);
      // The private address mirrors the public one while the toggle is off: blame what is on screen.
      if (!values.withPrivate && field === "privateHost") field = "publicHost";
      if (!values.withPrivate && field === "privatePort") field = "publicPort";
      const shownStatus = (FORM_EXEMPT as readonly number[]).includes(err.status ?? 0);
      if (field && shownStatus) {
        const next: FieldProblems = {};
        next[field] = { code: err.code, values: err.metadata };
        setServer(next);
        focusFirstProblem();
      } else if (shownStatus) handleApiError(err);
    },
    reset: (next) => {
      setValues(next);
      setSaved(next);
      setTried(false);
      setServer({});
    },
    dirty: JSON.stringify(values) !== JSON.stringify(saved),
  };
}
