import { toBcp47 } from "./locales";

// The language picker names each locale in its own language, region included (spec §2.3;
// Serbian with region RS, which toBcp47 gives). No flags: flag emoji showed as boxes on Debian
// and as two letters on Windows, and a <select>'s options cannot hold images.

/** A locale by its own name, e.g. de_DE → "Deutsch (Deutschland)". */
export function ownName(locale: string): string {
  const tag = toBcp47(locale);
  try {
    const name = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? locale;
    // Intl gives "español (Latinoamérica)" for es-419 but lower-case first letters for some
    // languages; a picker entry starts like a name.
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return locale;
  }
}

export function localeLabel(locale: string): string {
  return ownName(locale);
}
