/**
 * The template module: the v3 template / server definition format, read,
 * validated, converted from older formats, and rendered for one server.
 * Pure (no I/O, no Node modules), so the daemon, the panel and the browser
 * can all use it; host access (file_exists, in_path, PATH lookup) is injected.
 */
export {
  ConditionEvaluator,
  type ConditionFunctions,
  type ConditionScope,
  defaultConditionEvaluator,
} from "./conditions.ts";
export { parseConsoleConfig, substituteConsoleConfig } from "./console-config.ts";
export { conditionHolds, conditionScope, type ServerContext, tokenValues } from "./context.ts";
export { parseDocumentText } from "./document-text.ts";
export { parseGoDuration } from "./duration.ts";
export { convertEgg, type EggConversion, eggContainerRoot, isEgg } from "./egg.ts";
export { editConfigText } from "./egg-config-edit.ts";
export { eggRuleBreak, eggRuleProblem, type RuleBreak } from "./egg-rules.ts";
export { environmentsOf, environmentTypeOf } from "./environments.ts";
export { templateErrors } from "./errors.ts";
export { visibleGroups } from "./groups.ts";
export { type ImportResult, importTemplate } from "./import.ts";
export { convertLegacyTemplate } from "./legacy.ts";
export {
  isOperationType,
  type Operation,
  type OperationOf,
  type OperationType,
  operationFields,
  operationTypes,
} from "./operation-kinds.ts";
export { type ParseResult, parseTemplate } from "./parse.ts";
export { goPlatform, type Platform } from "./platform.ts";
export { playerCommandsOf } from "./players.ts";
export { portVariables } from "./port-variables.ts";
export { prepareOperation, prepareOperations, substituteOperation } from "./prepare-operations.ts";
export type { Problem } from "./problems.ts";
export { alternatives, checkRequirements, type RequirementsContext } from "./requirements.ts";
export { type RenderedRun, renderEnvironmentVars, renderRun, selectRunCommand } from "./run-command.ts";
export { splitCommandLine } from "./shell-words.ts";
export { substituteTokens, type TokenRole, type UserValueNames } from "./substitute.ts";
export { replaceTokens, type TokenValues, unknownTokens } from "./tokens.ts";
export type * from "./types.ts";
export {
  type CheckedValue,
  type Coerced,
  checkVariableValue,
  coerceVariableValue,
  userValueNames,
  type ValueBreak,
  variableTypeOf,
  variableValues,
} from "./variables.ts";
export { loadYaml } from "./yaml.ts";
