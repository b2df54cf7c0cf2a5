/**
 * Which of the panel's two compressions (br, gzip) a request's
 * Accept-Encoding asks for: the
 * highest q-value wins, br before gzip on a tie, `*` stands for any not
 * named, x-gzip is gzip, q=0 refuses. Undefined: send the body as it is.
 * A browser sends the same header on every call, so answers are remembered.
 */
export type Encoding = "br" | "gzip";

const order: Encoding[] = ["br", "gzip"];
const known = new Map<string, Encoding | undefined>();

export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (typeof header !== "string" || header === "") return undefined;
  if (known.has(header)) return known.get(header);
  const chosen = negotiate(header);
  if (known.size >= 64) known.clear();
  known.set(header, chosen);
  return chosen;
}

function negotiate(header: string): Encoding | undefined {
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [rawName, ...params] = part.split(";");
    let name = rawName.trim();
    if (name === "x-gzip") name = "gzip";
    if (name === "") continue;
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.split("=").map((s) => s.trim());
      if (k === "q") weight = Number.isFinite(Number(v)) ? Number(v) : 0;
    }
    q.set(name, Math.max(q.get(name) ?? 0, weight));
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of order) {
    const weight = q.get(encoding) ?? q.get("*") ?? 0;
    if (weight > bestQ) {
      best = encoding;
      bestQ = weight;
    }
  }
  return best;
}
