import { useMemo, useState } from "react";
import type { Problem } from "../../../server/templates/index.ts";
import {
  applyCommon,
  type CommonField,
  type CommonValues,
  type Doc,
  isObject,
  readCommon,
  withoutPanelFields,
} from "./draft";
import { lineColumn, type SyntaxProblem, scanJson } from "./jsonScan";
import { useTemplateModule } from "./templateModule";

export interface JsonSyntaxError {
  problem: SyntaxProblem | "notObject";
  offset: number;
  line: number;
  column: number;
}

export interface TemplateDraft {
  text: string;
  setText: (text: string) => void;
  /** The text parsed, when it is a JSON object. */
  doc?: Doc;
  syntax?: JsonSyntaxError;
  /** What the template module (and the panel's last refusal) found wrong. */
  problems: Problem[];
  /** The module checked this text (false while it loads, or when the text is not JSON). */
  checked: boolean;
  /** An older template format: the panel converts it on save. */
  converted: boolean;
  common?: CommonValues;
  setCommon: (field: CommonField, value: string) => void;
  /** Nothing known to be wrong (the panel still checks on save). */
  savable: boolean;
  dirty: boolean;
  markSaved: () => void;
  /** A refusal the panel gave on save (ErrTemplateInvalid's path and problem). */
  refused: (p: Problem) => void;
}

function parse(text: string): { doc?: Doc; syntax?: JsonSyntaxError } {
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return { doc: value };
    const start = text.length - text.trimStart().length;
    return { syntax: { problem: "notObject", offset: start, ...lineColumn(text, start) } };
  } catch {
    const error = scanJson(text).error ?? { offset: 0, problem: "value" as const };
    return { syntax: { ...error, ...lineColumn(text, error.offset) } };
  }
}

/** A template being edited: the JSON text, what it parses to, and what is wrong with it. */
export function useTemplateDraft(initial: string): TemplateDraft {
  const [text, setRawText] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [refusal, setRefusal] = useState<Problem>();
  const mod = useTemplateModule();

  const { doc, syntax } = useMemo(() => parse(text), [text]);
  const check = useMemo(
    () => (doc && mod ? mod.importTemplate(withoutPanelFields(doc)) : undefined),
    [doc, mod],
  );

  const problems: Problem[] = check && !check.ok ? [...check.problems] : [];
  if (refusal && !problems.some((p) => p.path === refusal.path)) problems.push(refusal);

  const setText = (next: string) => {
    setRawText(next);
    setRefusal(undefined);
  };

  return {
    text,
    setText,
    doc,
    syntax,
    problems,
    checked: !!check,
    converted: !!check?.ok && check.changes.length > 0,
    common: doc ? readCommon(doc) : undefined,
    setCommon: (field, value) => {
      if (doc) setText(applyCommon(text, doc, field, value));
    },
    savable: !!doc && problems.length === 0,
    dirty: text !== saved,
    markSaved: () => setSaved(text),
    refused: setRefusal,
  };
}
