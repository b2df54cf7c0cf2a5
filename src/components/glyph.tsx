// The drawing of every icon set (src/components/icons.tsx and the screens' own), and the few icons
// the login page's first load draws: a password field's eye, a toast's mark and close.

/** Path of a circle, for icons drawn from paths. */
export const circle = (cx: number, cy: number, r: number) =>
  `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
export const basePaths = {
  close: "M6 6l12 12M18 6 6 18",
  eye: `M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z${circle(12, 12, 3)}`,
  eyeOff:
    "M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3 3.9M6.6 6.6A17 17 0 0 0 2 12s3.6 7 10 7a10 10 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2",
  apply: "M5 12.5l4.5 4.5L19 7.5",
  alert: `${circle(12, 12, 9)}M12 7.5v5.5M12 16.5h.01`,
} as const;

/** A 24×24 stroked outline icon from one SVG path; every icon set of the app draws through it. */
export function Glyph({ d, size = 24, className }: { d: string; size?: number; className?: string }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
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

/**
 * The component of an icon set: `<X name="…" />` draws that name's path with the `icon` class
 * (plus `className`), `defaultSize` pixels square unless `size` says otherwise.
 */
export function iconSet<Name extends string>(table: Readonly<Record<Name, string>>, defaultSize = 24) {
  return function SetIcon({
    name,
    size = defaultSize,
    className,
  }: {
    name: Name;
    size?: number;
    className?: string;
  }) {
    return <Glyph d={table[name]} size={size} className={className ? `icon ${className}` : "icon"} />;
  };
}

/** The login page's icons (a password field's, a toast's), without the app's full table. */
export const BaseIcon = iconSet(basePaths);
