import type { ModSourceId } from "../../../api/mods";

/** The sources' own names: product names, the same in every language. */
export const sourceNames: Record<ModSourceId, string> = {
  modrinth: "Modrinth",
  hangar: "Hangar",
  curseforge: "CurseForge",
};
