// Inline SVG icons (no icon font, nothing fetched). 24×24 outline shapes drawn for Outpost.
// The few the login page draws, and the drawing itself, are in ./glyph (its first load).
import { basePaths, circle, iconSet } from "./glyph";

export { circle, Glyph, iconSet } from "./glyph";

const rect = (x: number, y: number, w: number, h: number, r: number) =>
  `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}h${-(w - 2 * r)}a${r} ${r} 0 0 1 ${-r} ${-r}v${-(h - 2 * r)}a${r} ${r} 0 0 1 ${r} ${-r}z`;

const paths = {
  ...basePaths,
  menu: "M4 6h16M4 12h16M4 18h16",
  server: `${rect(3, 4, 18, 7, 2)}${rect(3, 13, 18, 7, 2)}M7 7.5h.01M7 16.5h.01`,
  node: `${rect(9, 3, 6, 5, 1)}${rect(3, 16, 6, 5, 1)}${rect(15, 16, 6, 5, 1)}M12 8v4M6 16v-4h12v4`,
  users: `${circle(9, 8, 3.5)}M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6M16 4.6a3.5 3.5 0 0 1 0 6.8M18 14.3c2 .7 3.5 2.7 3.5 5.7`,
  template: "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5M9 13h6M9 17h6",
  settings: `M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1${circle(15, 6, 2)}${circle(9, 12, 2)}${circle(17, 18, 2)}`,
  account: `${circle(12, 12, 9)}${circle(12, 10, 3)}M6.2 18.4c1.3-2 3.4-3.2 5.8-3.2s4.5 1.2 5.8 3.2`,
  activity: "M3 12h4l3-8 4 16 3-8h4",
  database:
    "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
  logout: "M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9",
  chevronLeft: "M15 18l-6-6 6-6",
  chevronRight: "M9 18l6-6-6-6",
  search: `${circle(11, 11, 7)}M20 20l-4-4`,
  keyboard: `${rect(2, 6, 20, 12, 2)}M6 10h.01M10 10h.01M14 10h.01M18 10h.01M7 14h10`,
  info: `${circle(12, 12, 9)}M12 11v5.5M12 7.5h.01`,
} as const;

export type IconName = keyof typeof paths;

export const Icon = iconSet(paths);
