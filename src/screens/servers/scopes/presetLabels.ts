import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { builtInPresets } from "../../../../server/contract/scopes";
import type { PermissionPresetView } from "../../../api/permissionPresets";

// The built-in presets' names and what each gives, in words (server/contract/scopes.ts decides
// the scopes; these say the same).

const builtInText: Record<string, { name: MessageDescriptor; gives: MessageDescriptor }> = {
  viewer: { name: msg`Viewer`, gives: msg`Sees whether it runs, the console output and the files` },
  operator: {
    name: msg`Operator`,
    gives: msg`Viewer, and sends console commands, starts and stops, manages players, makes backups`,
  },
  manager: {
    name: msg`Manager`,
    gives: msg`Operator, and changes files, tasks, databases and mods, and adds users with at most their own permissions`,
  },
  coowner: { name: msg`Co-owner`, gives: msg`Everything a server user may hold` },
};

export function builtInPresetText(id: string) {
  return builtInText[id];
}

/** What the Add-user box offers before the panel answered: the built-in presets. */
export const shippedPresets: PermissionPresetView[] = builtInPresets.map((p) => ({ ...p, builtIn: true }));
