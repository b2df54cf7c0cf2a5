import { assignDefined, readObject, readString, requireField } from "./fields.ts";
import { childPath, type Problems } from "./problems.ts";
import { replaceTokens, type TokenValues } from "./tokens.ts";

/**
 * A template's `mods` (an Outpost addition): what the server runs, so the panel can offer
 * mods or plugins for it. `{"game": "minecraft", "loader": "fabric", "version": "1.20.1",
 * "folder": "mods"}`; each value may use `${variable}` and is read for one server with
 * resolveMods. Pure and browser-safe, like the rest of the template module.
 */
export interface ModsConfig {
  game: string;
  loader: string;
  version: string;
  folder: string;
}

export const modGames = ["minecraft"] as const;

/**
 * Loaders by what they take: plugins go in `plugins/` of a Bukkit-family or proxy server,
 * mods in `mods/`, data packs in the world's `datapacks/` (a vanilla server takes those).
 */
export const pluginLoaders = [
  "paper",
  "spigot",
  "purpur",
  "bukkit",
  "folia",
  "velocity",
  "waterfall",
  "bungeecord",
];
export const modLoaders = ["fabric", "forge", "neoforge", "quilt"];
export const allModLoaders = [...pluginLoaders, ...modLoaders, "datapack"];

const hasToken = (text: string) => text.includes("${");

/** Problems of one resolved (or token-free) value; `undefined` when it is fine. */
function valueProblem(key: keyof ModsConfig, value: string): string | undefined {
  if (key === "game" && !(modGames as readonly string[]).includes(value))
    return `unknown game ${JSON.stringify(value)} (${modGames.join(", ")})`;
  if (key === "loader" && !allModLoaders.includes(value))
    return `unknown loader ${JSON.stringify(value)} (${allModLoaders.join(", ")})`;
  if (key === "folder") {
    if (value === "" || value.startsWith("/") || value.includes("\\") || /(^|\/)\.\.?(\/|$)/.test(value))
      return "must be a folder inside the server's folder (no leading /, no . or .. step)";
  }
  if (key === "version" && (value.length > 64 || /[\s/\\]/.test(value)))
    return "must be a game version such as 1.20.1 (or latest)";
  return undefined;
}

const keys = ["game", "loader", "version", "folder"] as const;

export function parseMods(raw: unknown, path: string, problems: Problems): ModsConfig | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const found: Partial<ModsConfig> = {};
  for (const key of keys) {
    const at = childPath(path, key);
    if (!requireField(object[key], at, problems)) continue;
    const value = readString(object[key], at, problems);
    if (value === undefined) continue;
    // A value with a token is checked once it is read for a server (resolveMods).
    const problem = hasToken(value) ? undefined : valueProblem(key, value);
    if (problem) problems.push({ path: at, problem });
    else found[key] = value;
  }
  return keys.every((key) => found[key] !== undefined) ? assignDefined({} as ModsConfig, found) : undefined;
}

/** What a server's `mods` means once its variables are filled in; `latest` or "" is no version filter. */
export interface ResolvedMods extends ModsConfig {
  /** Whether its loader takes plugins rather than mods. */
  kind: "plugins" | "mods" | "datapacks";
}

export type ResolveResult = { ok: true; mods: ResolvedMods } | { ok: false; field: string; problem: string };

export function resolveMods(config: ModsConfig, values: TokenValues): ResolveResult {
  const resolved = {} as ModsConfig;
  for (const key of keys) {
    const filled = replaceTokens(config[key], values).trim();
    const value = key === "loader" ? filled.toLowerCase() : filled;
    const problem = hasToken(value) ? "names a variable the server does not have" : valueProblem(key, value);
    if (problem) return { ok: false, field: `mods.${key}`, problem };
    resolved[key] = value;
  }
  if (resolved.version === "latest") resolved.version = "";
  const kind = pluginLoaders.includes(resolved.loader)
    ? "plugins"
    : resolved.loader === "datapack"
      ? "datapacks"
      : "mods";
  return { ok: true, mods: { ...resolved, kind } };
}

/**
 * An egg's mods, where the egg makes it plain: its name starts with a loader's name (Paper,
 * Fabric, Forge Enhanced, NeoForge…) and one of its variables holds the game version.
 * Nothing is guessed beyond that.
 */
export function eggMods(name: string, variables: readonly string[]): ModsConfig | undefined {
  const first =
    name
      .trim()
      .toLowerCase()
      .split(/[\s_-]+/)[0] ?? "";
  const loader = [...pluginLoaders, ...modLoaders].find((known) => known === first);
  const version = ["MINECRAFT_VERSION", "MC_VERSION", "DL_VERSION"].find((v) => variables.includes(v));
  if (!loader || !version) return undefined;
  return {
    game: "minecraft",
    loader,
    version: `\${${version}}`,
    folder: pluginLoaders.includes(loader) ? "plugins" : "mods",
  };
}

/**
 * The mods of PufferPanel's own Minecraft template (in the community corpus, which has no `mods`
 * field): it names its loader in the variable `modlauncher` ("" for vanilla, then `fabric`,
 * `forge`, `neoforge`, `paper`, `spigot`…) and the game version in `version`. Read for a server
 * of type `minecraft-java` whose template has no `mods` of its own; the folder follows the loader
 * (plugins, mods, or the world's data packs for vanilla). Nothing is guessed beyond that.
 */
export function modlauncherMods(type: string, values: TokenValues): ModsConfig | undefined {
  const launcher = values.modlauncher;
  if (type !== "minecraft-java" || typeof launcher !== "string" || values.version === undefined)
    return undefined;
  const loader = launcher.trim().toLowerCase() || "datapack";
  if (!allModLoaders.includes(loader)) return undefined;
  const folder =
    loader === "datapack" ? "world/datapacks" : pluginLoaders.includes(loader) ? "plugins" : "mods";
  return { game: "minecraft", loader, version: "${version}", folder };
}
