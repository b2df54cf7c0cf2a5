// Icons of the file manager, drawn in the app's 24×24 outline style; only this lazy chunk carries them.
import { iconSet } from "../../../components/icons";

const page = "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5";
const folder = "M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z";

const paths = {
  folder,
  folderUp: `${folder}M12 16v-6M9 12.5l3-3 3 3`,
  folderPlus: `${folder}M12 10v6M9 13h6`,
  file: page,
  filePlus: `${page}M12 11v6M9 14h6`,
  text: `${page}M9 13h6M9 17h6`,
  archive: `${page}M10 3v2h2v2h-2v2h2v2h-2v2M10 15h2v3h-2z`,
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  upload: "M12 16V5M7 10l5-5 5 5M5 20h14",
  edit: "M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4",
  move: "M4 12h12M12 7l5 5-5 5M20 5v14",
  trash:
    "M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6M10 11v6M14 11v6",
  extract: "M4 8h16v11a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1zM3 4h18v4H3zM12 11v6M9 14l3 3 3-3",
  pack: "M4 8h16v11a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1zM3 4h18v4H3zM12 17v-6M9 14l3-3 3 3",
  refresh: "M20 11a8 8 0 0 0-14.3-4.9L4 8M4 4v4h4M4 13a8 8 0 0 0 14.3 4.9L20 16M20 20v-4h-4",
  more: "M12 5h.01M12 12h.01M12 19h.01",
  home: "M3 11l9-8 9 8M5 9.5V20h5v-6h4v6h5V9.5",
  save: "M5 3h11l5 5v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM7 3v5h8M7 21v-7h10v7",
  check: "M5 12.5l4.5 4.5L19 7.5",
  close: "M6 6l12 12M18 6 6 18",
  chevron: "M9 18l6-6-6-6",
  search: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4",
  sortUp: "M12 19V5M6 11l6-6 6 6",
  sortDown: "M12 5v14M6 13l6 6 6-6",
} as const;

export type FileIconName = keyof typeof paths;

export const FileIcon = iconSet(paths, 20);
