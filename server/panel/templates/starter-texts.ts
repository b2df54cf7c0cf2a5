import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Template } from "../../templates/index.ts";

/**
 * The starter templates' texts per locale: locales/<locale>/starter-templates.json holds, per
 * template, flat keys — `display` (the template's name), `<variable>.display`, `<variable>.desc`,
 * `<variable>.option.<value>` — and `sameAsEnglish`, the keys ("<template>/<key>") whose text is
 * the English on purpose (a game's name, "IP"). A request's Accept-Language picks the locale; the
 * texts are merged into display/desc, so every client (ours, PufferPanel's) gets a plain template.
 */
export type StarterTexts = Record<string, Record<string, string>>;

export const STARTER_TEXTS_FILE = "starter-templates.json";

/** Every locale's texts under a locales folder, by catalog name (de_DE); a locale without the file has none. */
export function readStarterTexts(localesDir: string): Map<string, StarterTexts> {
  const out = new Map<string, StarterTexts>();
  let locales: string[];
  try {
    locales = readdirSync(localesDir);
  } catch {
    return out;
  }
  for (const locale of locales) {
    let text: string;
    try {
      text = readFileSync(path.join(localesDir, locale, STARTER_TEXTS_FILE), "utf8");
    } catch {
      continue;
    }
    const { sameAsEnglish: _same, ...texts } = JSON.parse(text);
    out.set(locale, texts as StarterTexts);
  }
  return out;
}

/**
 * The locale an Accept-Language header asks for among those given: tags in the header's
 * preference order (q values), matched on the full tag (de-DE, nb-NO for no_NO), then on the
 * language alone (de); undefined for English or none.
 */
export function localeOf(acceptLanguage: string | undefined, locales: Iterable<string>): string | undefined {
  if (!acceptLanguage) return undefined;
  const known = [...locales];
  const norm = (s: string) => s.toLowerCase().replace("_", "-");
  const tagOf = (l: string) => (l === "no_NO" ? "nb-no" : l === "sr_SP" ? "sr-rs" : norm(l));
  const wanted = acceptLanguage
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: norm(tag.trim()), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of wanted) {
    if (tag.startsWith("en")) return undefined;
    const full = known.find((l) => norm(l) === tag || tagOf(l) === tag);
    if (full) return full;
    const language = tag.split("-")[0];
    const near = known.find(
      (l) => tagOf(l).split("-")[0] === language || (language === "no" && l === "no_NO"),
    );
    if (near) return near;
  }
  return undefined;
}

/** A starter template with its texts in a locale; a text the locale lacks stays English. */
export function localize(template: Template, texts: Record<string, string> | undefined): Template {
  if (!texts) return template;
  const data = Object.fromEntries(
    Object.entries(template.data ?? {}).map(([key, variable]) => {
      const v = { ...variable };
      const display = texts[`${key}.display`];
      const desc = texts[`${key}.desc`];
      if (display && v.display !== undefined) v.display = display;
      if (desc && v.desc !== undefined) v.desc = desc;
      if (Array.isArray(v.options))
        v.options = v.options.map((o) => {
          const text = texts[`${key}.option.${o.value}`];
          return text && o.display !== undefined ? { ...o, display: text } : o;
        });
      return [key, v];
    }),
  );
  return { ...template, ...(texts.display ? { display: texts.display } : {}), data } as Template;
}

/** The English texts of a starter template, keyed as the locale files key them. */
export function englishTexts(template: Template): Record<string, string> {
  const out: Record<string, string> = {};
  if (template.display) out.display = template.display;
  for (const [key, v] of Object.entries(template.data ?? {})) {
    if (v.display) out[`${key}.display`] = v.display;
    if (v.desc) out[`${key}.desc`] = v.desc;
    for (const o of v.options ?? []) if (o.display) out[`${key}.option.${o.value}`] = o.display;
  }
  return out;
}
