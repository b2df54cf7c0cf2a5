// Checks that a translation keeps the shape of its English message: the same placeholders, the
// same component tags (<0>…</0>), and plural cases the locale's grammar needs.
import { parse } from "@messageformat/parser";

function walk(tokens, found) {
  for (const t of tokens) {
    if (t.type === "argument" || t.type === "function") found.args.add(t.arg);
    if (t.type === "content") for (const tag of t.value.match(/<\/?\d+\/?>/g) ?? []) found.tags.push(tag);
    if (t.type === "plural" || t.type === "select") {
      found.args.add(t.arg);
      found.choices.push({
        type: t.type,
        pluralType: t.pluralType,
        arg: t.arg,
        keys: t.cases.map((c) => c.key),
      });
      for (const c of t.cases) walk(c.tokens, found);
    }
  }
  return found;
}

export function shapeOf(message) {
  return walk(parse(message), { args: new Set(), tags: [], choices: [] });
}

/** Problems with a translation, as short sentences; empty when it is well formed. */
export function shapeProblems(english, translation, bcp47Tag) {
  let source;
  let target;
  try {
    source = shapeOf(english);
  } catch {
    return [];
  }
  try {
    target = shapeOf(translation);
  } catch (e) {
    return [`not a valid ICU message (${e.message})`];
  }
  const problems = [];
  const missing = [...source.args].filter((a) => !target.args.has(a));
  const extra = [...target.args].filter((a) => !source.args.has(a));
  if (missing.length) problems.push(`placeholder missing: {${missing.join("}, {")}}`);
  if (extra.length) problems.push(`unknown placeholder: {${extra.join("}, {")}}`);
  const tags = (list) => [...list].sort().join(" ");
  if (tags(source.tags) !== tags(target.tags))
    problems.push(`tags differ: "${tags(source.tags)}" in English`);
  for (const choice of target.choices) {
    if (choice.type !== "plural") {
      if (!choice.keys.includes("other")) problems.push(`select {${choice.arg}} has no "other" case`);
      continue;
    }
    const rules = new Intl.PluralRules(bcp47Tag, {
      type: choice.pluralType === "ordinal" ? "ordinal" : "cardinal",
    });
    const needed = rules.resolvedOptions().pluralCategories;
    const keys = choice.keys.filter((k) => !k.startsWith("="));
    const unknown = keys.filter((k) => !needed.includes(k));
    const absent = needed.filter((k) => !keys.includes(k));
    if (unknown.length)
      problems.push(`plural {${choice.arg}}: ${unknown.join(", ")} not used in this language`);
    if (absent.length)
      problems.push(
        `plural {${choice.arg}}: needs ${absent.join(", ")} too (this language has ${needed.join(", ")})`,
      );
  }
  return problems;
}

/** True when a message has nothing to translate: only placeholders, numbers and punctuation. */
export function hasNoWords(english) {
  const shape = (() => {
    try {
      return parse(english);
    } catch {
      return null;
    }
  })();
  if (!shape) return false;
  const text = [];
  const collect = (tokens) => {
    for (const t of tokens) {
      if (t.type === "content") text.push(t.value.replace(/<\/?\d+\/?>/g, ""));
      if (t.type === "plural" || t.type === "select") for (const c of t.cases) collect(c.tokens);
    }
  };
  collect(shape);
  return !/\p{L}/u.test(text.join(""));
}
