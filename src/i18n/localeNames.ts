import { toBcp47 } from "./locales";

// The language picker names each locale in its own language, with its region's flag
// (spec §2.3; Serbian with region RS, which toBcp47 gives).

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

/** The flag emoji of a locale's region (two regional indicator letters); 419 is a globe. */
export function flagOf(locale: string): string {
  const region = toBcp47(locale).split("-")[1] ?? "";
  if (region === "419") return "🌎";
  if (!/^[A-Z]{2}$/.test(region)) return "";
  return String.fromCodePoint(...[...region].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

export function localeLabel(locale: string): string {
  const flag = flagOf(locale);
  return flag ? `${flag} ${ownName(locale)}` : ownName(locale);
}
