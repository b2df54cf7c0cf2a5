import { type ConditionEvaluator, type ConditionScope, defaultConditionEvaluator } from "./conditions.ts";
import type { Group } from "./types.ts";

/**
 * The variable groups a settings form shows, in their `order`: those whose
 * CEL `if` holds for the values being edited (minecraft shows its Forge group
 * only when `modlauncher == 'forge'`). A condition that cannot be evaluated
 * shows its group, so a broken template never hides settings.
 */
export function visibleGroups(
  groups: readonly Group[] | undefined,
  scope: ConditionScope,
  evaluator: ConditionEvaluator = defaultConditionEvaluator(),
): Group[] {
  const shown = (group: Group) => {
    try {
      return evaluator.evaluate(group.if, scope);
    } catch {
      return true;
    }
  };
  return (groups ?? []).filter(shown).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}
