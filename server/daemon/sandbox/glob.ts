/**
 * Go's filepath.Match patterns, which the `move` step's source uses
 * (`paper-*.jar`): `*` is any run of characters but `/`, `?` one character
 * but `/`, `[a-z]` / `[^a-z]` a class, `\` escapes the next character. There
 * is no `**`; a pattern is matched one path segment at a time.
 *
 * Matched without backtracking: a pattern turned into a RegExp (`[^/]*a[^/]*a…`)
 * costs a power of the name's length per star, and a user's task chooses the
 * pattern (`*a*a*a*a*a*a*b` over a folder of long names held the node's event
 * loop for seconds). Here each star only remembers where it stood, as Go's
 * matcher does: at most pattern × name steps.
 */
export function hasGlobMeta(segment: string): boolean {
  return /[*?[\\]/.test(segment);
}

type Token = { star: true } | { star: false; accepts: (char: string) => boolean };

export interface SegmentMatcher {
  test(name: string): boolean;
}

const cache = new Map<string, SegmentMatcher>();

export function segmentMatcher(segment: string): SegmentMatcher {
  let matcher = cache.get(segment);
  if (matcher) return matcher;
  const tokens = tokensOf(segment);
  matcher = { test: (name) => matches(tokens, [...name]) };
  if (cache.size > 200) cache.clear();
  cache.set(segment, matcher);
  return matcher;
}

function tokensOf(segment: string): Token[] {
  const chars = [...segment];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === "*") {
      // Stars in a row are one star.
      if (!tokens.at(-1)?.star) tokens.push({ star: true });
    } else if (char === "?") tokens.push({ star: false, accepts: (c) => c !== "/" });
    else if (char === "\\" && i + 1 < chars.length) tokens.push(exactly(chars[++i]));
    else if (char === "[") {
      const close = chars.indexOf("]", i + 2);
      if (close === -1) {
        tokens.push(exactly("["));
        continue;
      }
      tokens.push(characterClass(chars.slice(i + 1, close)));
      i = close;
    } else tokens.push(exactly(char));
  }
  return tokens;
}

function exactly(expected: string): Token {
  return { star: false, accepts: (c) => c === expected };
}

/** `[a-z0]` / `[^a-z]`: single characters and ranges, by code point. */
function characterClass(body: string[]): Token {
  const negated = body[0] === "^";
  const items = negated ? body.slice(1) : body;
  const ranges: [number, number][] = [];
  for (let i = 0; i < items.length; i++) {
    const low = items[i].codePointAt(0) as number;
    if (items[i + 1] === "-" && i + 2 < items.length) {
      ranges.push([low, items[i + 2].codePointAt(0) as number]);
      i += 2;
    } else ranges.push([low, low]);
  }
  return {
    star: false,
    accepts: (c) => {
      if (c === "/") return false;
      const code = c.codePointAt(0) as number;
      return ranges.some(([from, to]) => code >= from && code <= to) !== negated;
    },
  };
}

/** The whole name against the whole pattern; a star never matches "/". */
function matches(tokens: Token[], name: string[]): boolean {
  let t = 0;
  let n = 0;
  // The last star seen, and the name position it has taken up to: a mismatch later lets it take one more.
  let starAt = -1;
  let starTook = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token?.star) {
      starAt = t++;
      starTook = n;
    } else if (token !== undefined && !token.star && token.accepts(name[n])) {
      t++;
      n++;
    } else if (starAt !== -1 && name[starTook] !== "/") {
      t = starAt + 1;
      n = ++starTook;
    } else return false;
  }
  while (tokens[t]?.star) t++;
  return t === tokens.length;
}
