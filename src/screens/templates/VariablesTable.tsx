import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { Variable } from "../../../server/templates/index.ts";
import { plainText, valueText } from "./summaries";

/** The template's variables: label and description, type, default value and flags. Cards on phones. */
export function VariablesTable({ data }: { data: Record<string, Variable> }) {
  const entries = Object.entries(data);
  if (entries.length === 0) {
    return (
      <p className="muted small">
        <Trans>This template has no variables.</Trans>
      </p>
    );
  }
  return (
    <table className="variables" data-testid="variables">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Variable</Trans>
          </th>
          <th scope="col">
            <Trans>Type</Trans>
          </th>
          <th scope="col">
            <Trans>Default</Trans>
          </th>
          <th scope="col">
            <span className="visually-hidden">
              <Trans>Flags</Trans>
            </span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, v]) => {
          const options = v.options?.map((o) => {
            const value = valueText(o.value) || '""';
            return o.display ? `${o.display} (${value})` : value;
          });
          return (
            <tr key={name}>
              <th scope="row">
                <span className="var-display">{v.display || name}</span>
                <code className="var-name muted">{name}</code>
                {v.desc && <span className="var-desc muted small">{plainText(v.desc)}</span>}
              </th>
              <td data-label={t`Type`}>{v.type}</td>
              <td data-label={t`Default`}>
                {valueText(v.value) === "" ? (
                  <span className="muted">—</span>
                ) : (
                  <code>{valueText(v.value)}</code>
                )}
                {options && options.length > 0 && (
                  <span className="var-options muted small">
                    <Trans>Choices: {options.join(", ")}</Trans>
                  </span>
                )}
              </td>
              <td className="var-flags">
                {v.required && (
                  <span className="tag">
                    <Trans>required</Trans>
                  </span>
                )}
                {v.userEdit && (
                  <span className="tag">
                    <Trans>users may change</Trans>
                  </span>
                )}
                {v.internal && (
                  <span className="tag">
                    <Trans>internal</Trans>
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
