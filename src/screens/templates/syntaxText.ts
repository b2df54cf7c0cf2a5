import { t } from "@lingui/core/macro";
import type { JsonSyntaxError } from "./useTemplateDraft";

/** What a JSON syntax error means, in words (browsers' own messages differ and are not translated). */
export function syntaxText(problem: JsonSyntaxError["problem"]): string {
  switch (problem) {
    case "value":
      // The brace goes in as a value: a literal { in the message would read as an ICU placeholder.
      return t`A value is expected here (text in double quotes, a number, true, false, null, ${"{"} or [)`;
    case "key":
      return t`A property name in double quotes is expected here`;
    case "colon":
      return t`A colon (:) is expected after the property name`;
    case "objectEnd":
      return t`A comma or } is expected here`;
    case "arrayEnd":
      return t`A comma or ] is expected here`;
    case "stringEnd":
      return t`This text has no closing double quote`;
    case "escape":
      return t`This backslash escape is not valid JSON`;
    case "control":
      return t`Line breaks and tabs inside a text must be written as \\n and \\t`;
    case "number":
      return t`This number is not valid JSON`;
    case "trailing":
      return t`Unexpected text after the end of the template`;
    case "notObject": {
      // Braces are ICU syntax in a message: the example goes in as a value.
      const example = "{ … }";
      return t`A template is a JSON object: ${example}`;
    }
  }
}
