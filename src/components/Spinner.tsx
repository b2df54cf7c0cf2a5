import { t } from "@lingui/core/macro";

export function Spinner() {
  return <div className="spinner" role="progressbar" aria-label={t`Loading`} />;
}
