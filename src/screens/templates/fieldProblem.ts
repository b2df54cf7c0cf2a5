import { i18n, type MessageDescriptor } from "@lingui/core";
import { errorMessage } from "../../i18n/errorMessages";

/** A field problem (an error catalogue code) as text, naming the field by its on-screen label. */
export function fieldProblemText(code: string, values: Record<string, unknown> | undefined, label: string) {
  const text = errorMessage(code);
  if (!text) return code;
  const filled: MessageDescriptor = { ...text, values: { ...values, field: label } };
  return i18n._(filled);
}
