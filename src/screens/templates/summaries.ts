// Read-only views of a template's parts: plain strings, never HTML.

/** Text of a description that may hold HTML (templates use <b>, links): tags dropped, entities read. */
export function plainText(html: string): string {
  if (!/[<&]/.test(html) || typeof DOMParser === "undefined") return html;
  // A parsed document is inert: nothing in it runs or loads.
  return new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
}

const MAX = 160;
const clip = (s: string) => (s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s);

function show(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) return v.join(", ");
  return undefined;
}

/** An install step in one line: its kind and its first few simple fields (`commands: …`, `target: …`). */
export function stepSummary(op: Record<string, unknown>): { type: string; details: [string, string][] } {
  const details: [string, string][] = [];
  for (const [key, value] of Object.entries(op)) {
    if (key === "type" || key === "if") continue;
    const text = show(value);
    if (text !== undefined && text !== "") details.push([key, clip(text)]);
    if (details.length === 3) break;
  }
  return { type: typeof op.type === "string" ? op.type : "?", details };
}

/** A variable's value as shown: text as is, others as JSON. */
export const valueText = (v: unknown) =>
  typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v);
