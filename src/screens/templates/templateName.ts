import { t } from "@lingui/core/macro";
import { LOCAL_REPO, templateExists } from "../../api/templates";
import { TEMPLATE_NAME } from "./filter";

/** Why a name cannot be a new local template's, or undefined. Asks the panel whether it is taken. */
export async function newNameProblem(name: string): Promise<string | undefined> {
  if (!name) return t`Name is required`;
  if (!TEMPLATE_NAME.test(name))
    return t`Use letters, digits, dots, dashes and underscores only (at most 100)`;
  if (await templateExists(LOCAL_REPO, name)) return t`A local template named ${name} already exists`;
  return undefined;
}
