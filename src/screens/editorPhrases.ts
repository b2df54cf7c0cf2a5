import { t } from "@lingui/core/macro";

// The code editors' (files, template definitions) own words, in the page's language.

/** CodeMirror's own words (search panel, screen reader notes) in the page's language. */
export function editorPhrases(): Record<string, string> {
  const count = "$";
  const line = "$";
  return {
    Find: t`Find`,
    Replace: t`Replace`,
    next: t`next`,
    previous: t`previous`,
    all: t`all`,
    "match case": t`match case`,
    regexp: t`regular expression`,
    "by word": t`whole words`,
    replace: t`replace`,
    "replace all": t`replace all`,
    close: t`close`,
    "current match": t`current match`,
    "on line": t`on line`,
    "replaced $ matches": t`replaced ${count} matches`,
    "replaced match on line $": t`replaced the match on line ${line}`,
    "Control character": t`Control character`,
    "Selection deleted": t`Selection deleted`,
  };
}
