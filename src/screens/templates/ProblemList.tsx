import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Icon } from "../../components/icons";
import { syntaxText } from "./syntaxText";
import type { JsonSyntaxError } from "./useTemplateDraft";

export interface LocatedProblem {
  path: string;
  problem: string;
  /** Where it is in the text, when found. */
  from?: number;
  to?: number;
  line?: number;
}

/**
 * What is wrong with the document: the JSON syntax error with its line and column, or the
 * template's problems by path. Each one selects its place in the editor when clicked.
 */
export function ProblemList({
  id,
  syntax,
  problems,
  reveal,
}: {
  id: string;
  syntax?: JsonSyntaxError;
  problems: LocatedProblem[];
  reveal: (from: number, to: number) => void;
}) {
  if (syntax) {
    return (
      <div id={id} className="problems" role="alert" data-testid="template-problems">
        <button type="button" className="problem" onClick={() => reveal(syntax.offset, syntax.offset + 1)}>
          <Icon name="alert" size={18} />
          <span>
            <span className="problem-where">
              <Trans>
                Line {syntax.line}, column {syntax.column}
              </Trans>
            </span>{" "}
            {syntaxText(syntax.problem)}
          </span>
        </button>
      </div>
    );
  }
  if (problems.length === 0) return null;
  return (
    <div id={id} className="problems" role="alert" data-testid="template-problems">
      <p className="problems-count">
        {problems.length === 1 ? (
          <Trans>The template has 1 problem:</Trans>
        ) : (
          <Trans>The template has {problems.length} problems:</Trans>
        )}
      </p>
      <ul>
        {problems.map((p) => (
          <li key={`${p.path}:${p.problem}`}>
            <button
              type="button"
              className="problem"
              onClick={() => p.from !== undefined && reveal(p.from, p.to ?? p.from)}
              disabled={p.from === undefined}
            >
              <Icon name="alert" size={18} />
              <span>
                <code className="problem-where">{p.path || t`(the whole template)`}</code>
                {p.line !== undefined && <span className="muted small"> {t`line ${p.line}`}</span>}{" "}
                <span data-testid="problem-text">{p.problem}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
