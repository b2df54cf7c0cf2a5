import { i18n, type MessageDescriptor } from "@lingui/core";
import { errorMessage } from "../../i18n/errorMessages";
import { FIELD_LABELS, type FieldName, type FieldProblem } from "./nodeForm";

const label = (f: unknown) =>
  typeof f === "string" && f in FIELD_LABELS ? i18n._(FIELD_LABELS[f as FieldName]) : f;

/** The catalogue text of a field problem, with field names replaced by their on-screen labels. */
export function problemText(p: FieldProblem, field: FieldName): string {
  const text = errorMessage(p.code);
  const values = {
    ...p.values,
    field: label(field),
    field1: label(p.values?.field1 ?? field),
    field2: label(p.values?.field2),
  };
  if (!text) return p.code;
  const filled: MessageDescriptor = { ...text, values };
  return i18n._(filled);
}
