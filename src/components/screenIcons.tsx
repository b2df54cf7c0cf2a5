// More inline icons, kept out of icons.tsx so the login page does not carry them: only the
// lazily loaded screens that use them do. Same 24×24 outline style.
import { circle, iconSet } from "./icons";

const box = (x: number, y: number, w: number, h: number, r: number) =>
  `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}h${-(w - 2 * r)}a${r} ${r} 0 0 1 ${-r} ${-r}v${-(h - 2 * r)}a${r} ${r} 0 0 1 ${r} ${-r}z`;

const paths = {
  grid: `${box(3, 3, 7.5, 7.5, 1.5)}${box(13.5, 3, 7.5, 7.5, 1.5)}${box(3, 13.5, 7.5, 7.5, 1.5)}${box(13.5, 13.5, 7.5, 7.5, 1.5)}`,
  list: "M9 6h12M9 12h12M9 18h12M4 6h.01M4 12h.01M4 18h.01",
  plus: "M12 5v14M5 12h14",
  copy: `${box(9, 9, 12, 12, 2)}M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1`,
  trash:
    "M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6M10 11v6M14 11v6",
  save: "M5 3h11l5 5v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM7 3v5h8M7 21v-7h10v7",
  reachable: `${circle(12, 12, 9)}M8 12.5l3 3 5-6`,
  unreachable: `${circle(12, 12, 9)}M9 9l6 6M15 9l-6 6`,
  unknown: `${circle(12, 12, 9)}M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01`,
  home: "M3 11l9-8 9 8M5 9.5V20h5v-6h4v6h5V9.5",
  terminal: `${box(2, 4, 20, 16, 2)}M6 9l3 3-3 3M12 15h5`,
  back: "M19 12H5M11 18l-6-6 6-6",
  upload: "M12 15V3M7 8l5-5 5 5M4 21h16",
  pencil: "M17 3a2.8 2.8 0 0 1 4 4L7.5 20.5 2 22l1.5-5.5L17 3z",
  link: "M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7",
} as const;

export type ScreenIconName = keyof typeof paths;

export const ScreenIcon = iconSet(paths);
