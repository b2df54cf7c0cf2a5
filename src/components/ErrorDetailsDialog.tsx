import { t } from "@lingui/core/macro";
import { maskSecrets } from "../api/maskSecrets";
import { Dialog } from "./Dialog";
import { errorDetails } from "./errorDetailsStore";

function statusText(status: number | undefined): string {
  switch (status) {
    case 401:
      return t`Not logged in (401)`;
    case 403:
      return t`Permission denied (403)`;
    case 404:
      return t`Endpoint not found, is something blocking access to the API? (404)`;
    case 500:
      return t`Server error (500)`;
    case 502:
      return t`Bad Gateway, is the panel running? (502)`;
    case undefined:
      return t`No answer from the panel (network error)`;
    default:
      return t`Request failed with status code ${status}`;
  }
}

function showBody(body: unknown): string {
  const masked = maskSecrets(body);
  if (masked === undefined || masked === "") return "";
  return typeof masked === "string" ? masked : JSON.stringify(masked, null, 2);
}

export function ErrorDetailsDialog() {
  const err = errorDetails.value;
  if (!err) return null;
  const body = showBody(err.request.body);
  return (
    <Dialog title={t`Error details`} onClose={() => (errorDetails.value = null)} wide testId="error-details">
      <p className="error-status">{statusText(err.status)}</p>
      {err.msg && <p>{err.msg}</p>}
      <p>
        <code>
          {err.request.method} {err.request.url}
        </code>
      </p>
      {body && (
        <>
          <h3 className="small-title">{t`Request body`}</h3>
          <pre className="code-block">{body}</pre>
        </>
      )}
    </Dialog>
  );
}
