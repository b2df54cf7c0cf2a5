import { i18n, type MessageDescriptor } from "@lingui/core";
import { toastError } from "../../components/toastStore";
import { errorTexts } from "../../i18n/activate";

/**
 * Back from a sign-in provider that was refused, the panel says why in the address: the error's
 * code (`?oidcError=`) and its message's values beside it (server/api/oidc.ts). Loaded by the login
 * page only then, so the page's first load carries none of it (its budget, issue 41).
 */
export async function showOidcRefusal(): Promise<void> {
  const query = new URLSearchParams(window.location.search);
  const code = query.get("oidcError");
  if (!code) return;
  // The errors' texts are in the screens' catalog (lingui.config.ts): loaded now, with their table.
  const errorMessage = await errorTexts();
  const text = errorMessage(code) ?? errorMessage("ErrUnknownError");
  // Built apart from the call: Lingui's extractor cannot read a spread inside `i18n._({…})`.
  const filled: MessageDescriptor | undefined = text && { ...text, values: Object.fromEntries(query) };
  if (filled) toastError(i18n._(filled));
  window.history.replaceState(null, "", window.location.pathname);
}
