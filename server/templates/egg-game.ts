/**
 * The server type an imported egg gets: the game it runs, as the starter templates and the
 * server list's icons name games (`minecraft-java`, `rust`, …), read from the egg's name, its
 * description and its images. An egg of a game we have no name for is typed by its own name.
 * (Pterodactyl eggs carry no game field; without this every imported server read "egg".)
 */
const games: readonly [type: string, pattern: RegExp][] = [
  ["minecraft-bedrock", /\bbedrock\b|pocketmine|nukkit/i],
  [
    "minecraft-java",
    /minecraft|\b(paper|spigot|purpur|forge|neoforge|fabric|quilt|sponge|bungeecord|waterfall|velocity|folia)\b/i,
  ],
  ["terraria", /terraria|tmodloader/i],
  ["7days2die", /7\s*days\s*to\s*die/i],
  ["csgo", /counter[- ]strike|\bcs2\b|\bcsgo\b/i],
  ["gmod", /garry'?s\s*mod|\bgmod\b/i],
  ["ark", /\bark\b/i],
  ["rust", /\brust\b/i],
  ["factorio", /factorio/i],
  ["dontstarvetogether", /don'?t\s*starve/i],
  ["starbound", /starbound/i],
  ["arma3", /\barma\s*3\b/i],
  ["openttd", /openttd/i],
  ["eco", /^eco\b/i],
];

export function eggGameType(name: string, description: string, images: readonly string[]): string {
  // The name first: "Paper" is Minecraft whatever its description says of other games.
  for (const text of [name, `${description} ${images.join(" ")}`])
    for (const [type, pattern] of games) if (pattern.test(text)) return type;
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "egg";
}
