import { t } from "@lingui/core/macro";
import type { ValueBreak } from "../../../server/templates/index.ts";

/** What a value breaks (the node's own check, server/templates/variables.ts) in the user's language. */
export function valueProblemText(broken: ValueBreak): string {
  switch (broken.check) {
    case "type":
      return broken.type === "integer" ? t`Enter a whole number` : t`Choose one of the options`;
    case "option":
      return t`Choose one of the options`;
    case "control":
      return t`Line breaks and control characters are not allowed`;
    case "number":
      return t`Enter a number`;
    case "minValue": {
      const limit = broken.limit;
      return t`Minimum: ${limit}`;
    }
    case "maxValue": {
      const limit = broken.limit;
      return t`Maximum: ${limit}`;
    }
    case "minLength": {
      const limit = broken.limit;
      return t`Minimum length: ${limit}`;
    }
    case "maxLength": {
      const limit = broken.limit;
      return t`Maximum length: ${limit}`;
    }
    case "pattern":
      return t`Not in the expected form`;
    case "notIn":
      return t`This value is not allowed`;
  }
}
