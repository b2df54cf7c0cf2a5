import { i18n, type MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { type ApiError, fillTemplate } from "../../api/errors";
import { errorMessage } from "../../i18n/errorMessages";

/** The catalogue text of an error shown in place (not as a toast), filled from its metadata. */
export function errorText(err: ApiError): string {
  const text = errorMessage(err.code);
  const filled: MessageDescriptor | undefined = text && { ...text, values: err.metadata };
  if (filled && err.code !== "ErrUnknownError") return i18n._(filled);
  if (err.msg) return fillTemplate(err.msg, err.metadata);
  return err.status ? t`The panel answered with status ${err.status}.` : t`The panel could not be reached.`;
}
