import { t } from "@lingui/core/macro";
import { circle, Glyph } from "../../components/icons";
import type { ServerStatus } from "../../state/serverStatus";
import "./type-icon.css";

// Icons of the server screens, drawn for Outpost (24×24 outlines like components/icons.tsx).
// Only the lazily loaded server screens carry them.

const cube = "M12 2.5l8.5 4.75v9.5L12 21.5l-8.5-4.75v-9.5zM3.5 7.25 12 12l8.5-4.75M12 12v9.5";

/** The known server types (spec §2.3's 14, and the starter templates'), each with a glyph and a tint. */
const typeGlyphs = {
  "7days2die": {
    d: `M12 3a8 8 0 0 0-8 8c0 3 1.5 4.6 3 5.5V20h10v-3.5c1.5-.9 3-2.5 3-5.5a8 8 0 0 0-8-8zM10.5 20v-2.5M13.5 20v-2.5${circle(9, 11, 1.6)}${circle(15, 11, 1.6)}`,
    hue: 0,
  },
  ark: {
    d: "M12 21c-2.6 0-4.2-1.5-4.2-3.5S9.8 13.8 12 13.8s4.2 1.7 4.2 3.7S14.6 21 12 21zM7.5 12 4.5 6M12 11V3M16.5 12l3-6",
    hue: 28,
  },
  arma3: { d: "M3 16.5h18M5 16.5a7 7 0 0 1 14 0M8.5 16.5V19h7v-2.5M12 9.5v3", hue: 90 },
  csgo: { d: `${circle(12, 12, 7)}M12 2v6M12 16v6M2 12h6M16 12h6`, hue: 40 },
  css: { d: `${circle(12, 12, 9)}${circle(12, 12, 5)}${circle(12, 12, 1)}`, hue: 20 },
  dontstarvetogether: {
    d: "M12 3c3 4 5 6 5 9a5 5 0 0 1-10 0c0-2 .9-3.4 2-4.5 0 2 1 3 2 3 0-3-1-5 1-7.5zM5 21l14-3M5 18l14 3",
    hue: 15,
  },
  eco: { d: "M5 19C5 10 10 5 20 4c-1 10-6 15-15 15zM5 19l8-8", hue: 120 },
  factorio: {
    d: `${circle(12, 12, 3)}${circle(12, 12, 7)}M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9 7 7M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1`,
    hue: 35,
  },
  gmod: {
    d: "M15 3a5 5 0 0 0-4.6 7L3 17.4 6.6 21l7.4-7.4A5 5 0 0 0 21 9l-3 3-3-3 3-3a5 5 0 0 0-3-3z",
    hue: 210,
  },
  "minecraft-bedrock": { d: `${cube}M3.5 12 12 16.75 20.5 12`, hue: 200 },
  "minecraft-java": { d: cube, hue: 100 },
  rust: {
    d: "M4 20 14 10M12.5 4.5c3-1 6.3.4 7.4 3.4 1 2.9-.4 5-1.9 6l-7.5-7.5c.5-1 1-1.4 2-1.9z",
    hue: 12,
  },
  starbound: {
    d: `${circle(11, 13, 5)}M3 16.5c2 1.6 12-2.4 16-7.5M18 2.5v4M16 4.5h4`,
    hue: 260,
  },
  terraria: { d: `${circle(12, 8.5, 5.5)}M12 22v-8M9 18.5l3-3 3 3`, hue: 140 },
  // A locomotive: boiler, cab, chimney and wheels on the rail.
  openttd: {
    d: `M3 15V9h9v6M12 15V6h6v9M5 9V5M3 15h18M2 21h20${circle(7, 18, 2)}${circle(15.5, 18, 2)}`,
    hue: 225,
  },
  // A command line: the starter "Custom command" template (type "custom", icon "terminal").
  terminal: {
    d: "M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zM7 10l3 2-3 2M12 15h5",
    hue: 190,
  },
} as const;

/** The games' own names (titles: the same in every language) for the known types. */
const gameNames: Record<string, string> = {
  "7days2die": "7 Days to Die",
  ark: "ARK: Survival Evolved",
  arma3: "Arma 3",
  csgo: "Counter-Strike: Global Offensive",
  css: "Counter-Strike: Source",
  dontstarvetogether: "Don't Starve Together",
  eco: "Eco",
  factorio: "Factorio",
  gmod: "Garry's Mod",
  "minecraft-bedrock": "Minecraft: Bedrock Edition",
  "minecraft-java": "Minecraft: Java Edition",
  openttd: "OpenTTD",
  rust: "Rust",
  starbound: "Starbound",
  terraria: "Terraria",
};

/** Types that name no game (a command of one's own): nothing to show beside the server. */
const noGame = new Set(["", "custom", "generic", "other"]);

/** What a server runs, by its type: the game's name when known, else the type as the template says it. */
export function gameName(type: string | undefined): string | undefined {
  const key = (type ?? "").trim().toLowerCase();
  if (noGame.has(key)) return undefined;
  return gameNames[key] ?? type;
}

const genericServer =
  "M5 4h14a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM5 13h14a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2zM7 7.5h.01M7 16.5h.01";

function glyphOf(type: string | undefined, icon?: string) {
  const key = (k: string | undefined) => (k ? k.toLowerCase() : "");
  const table = typeGlyphs as Record<string, { d: string; hue: number } | undefined>;
  return table[key(type)] ?? table[key(icon)];
}

/** The type's glyph on a tinted tile; an unknown type gets a plain server glyph. */
export function ServerTypeIcon({ type, icon, size = 40 }: { type?: string; icon?: string; size?: number }) {
  const glyph = glyphOf(type, icon);
  const style = glyph
    ? { background: `hsl(${glyph.hue} 60% 50% / 0.16)`, color: `hsl(${glyph.hue} 55% 36%)` }
    : undefined;
  return (
    <span
      className={glyph ? "type-icon" : "type-icon type-generic"}
      style={{ ...style, width: size, height: size }}
      data-type={glyph ? type : "generic"}
      title={type || undefined}
    >
      <Glyph d={glyph?.d ?? genericServer} size={size * 0.6} />
    </span>
  );
}

const actionPaths = {
  start: { d: "M7 4.5v15l12-7.5z", fill: true },
  stop: { d: "M6.5 6.5h11v11h-11z", fill: true },
  kill: { d: "M13 2 4 14h7l-1 8 9-12h-7z", fill: false },
  install: { d: "M12 3v12M7 10l5 5 5-5M4 21h16", fill: false },
  reload: { d: "M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7", fill: false },
  send: { d: "M4 12 20 4l-6 16-2.5-6.5z", fill: false },
  down: { d: "M12 5v14M6 13l6 6 6-6", fill: false },
  check: { d: "M5 12.5l4.5 4.5L19 7.5", fill: false },
  user: { d: `${circle(12, 8, 4)}M4 21c0-4 3.6-7 8-7s8 3 8 7`, fill: false },
} as const;

export type ActionIconName = keyof typeof actionPaths;

export function ActionIcon({ name, size = 20 }: { name: ActionIconName; size?: number }) {
  const { d, fill } = actionPaths[name];
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={fill ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

/** Status as the list and view show it; `loading` is an action on its way (spec §2.3). */
export type ShownStatus = ServerStatus | "loading";

export function statusLabel(status: ShownStatus): string {
  switch (status) {
    case "installing":
      return t`Installing`;
    case "starting":
      return t`Starting`;
    case "online":
      return t`Online`;
    case "offline":
      return t`Offline`;
    case "loading":
      return t`Working…`;
    case "unreachable":
      return t`Unreachable`;
    default:
      return t`Unknown`;
  }
}

const statusPaths: Record<ShownStatus, string> = {
  online: circle(12, 12, 6),
  // Half a dot: running, not ready yet (an egg's done line).
  starting: `${circle(12, 12, 6)}M12 6a6 6 0 0 1 0 12z`,
  offline: circle(12, 12, 6),
  installing: "M12 3v12M7 10l5 5 5-5M4 21h16",
  loading: "M6 3h12M6 21h12M7 3c0 5 10 6 10 9s-10 4-10 9M17 3c0 5-10 6-10 9s10 4 10 9",
  unknown: "M12 3a9 9 0 1 0 9 9",
  unreachable: `${circle(12, 12, 9)}M9 9l6 6M15 9l-6 6`,
};

/** Icon and word (colour is a third cue, never the only one); unknown spins. */
export function StatusBadge({ status, compact }: { status: ShownStatus; compact?: boolean }) {
  const label = statusLabel(status);
  return (
    <span className={`status status-${status}`} data-status={status} title={compact ? label : undefined}>
      <svg
        className={
          status === "unknown" ? "icon status-spin" : status === "loading" ? "icon status-pulse" : "icon"
        }
        width={16}
        height={16}
        viewBox="0 0 24 24"
        fill={status === "online" || status === "starting" ? "currentColor" : "none"}
        fillRule="evenodd"
        stroke="currentColor"
        strokeWidth={2.4}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d={statusPaths[status]} />
      </svg>
      <span className={compact ? "visually-hidden" : undefined}>{label}</span>
    </span>
  );
}
