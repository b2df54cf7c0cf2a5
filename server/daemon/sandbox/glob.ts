/**
 * Go's filepath.Match patterns, which the `move` step's source uses
 * (`paper-*.jar`): `*` is any run of characters but `/`, `?` one character
 * but `/`, `[a-z]` / `[^a-z]` a class, `\` escapes the next character. There
 * is no `**`; a pattern is matched one path segment at a time.
 */
export function hasGlobMeta(segment: string): boolean {
  return /[*?[\\]/.test(segment);
}

const cache = new Map<string, RegExp>();

export function segmentMatcher(segment: string): RegExp {
  let regex = cache.get(segment);
  if (regex) return regex;
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i];
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "\\" && i + 1 < segment.length) source += literal(segment[++i]);
    else if (char === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close === -1) {
        source += "\\[";
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negated = body.startsWith("^");
      if (negated) body = body.slice(1);
      source += `[${negated ? "^" : ""}${body.replace(/[\]\\^]/g, (c) => `\\${c}`)}]`;
      i = close;
    } else source += literal(char);
  }
  regex = new RegExp(`^${source}$`, "s");
  if (cache.size > 200) cache.clear();
  cache.set(segment, regex);
  return regex;
}

function literal(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/-]/g, (c) => `\\${c}`);
}
