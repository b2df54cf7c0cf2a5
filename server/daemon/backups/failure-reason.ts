import { ApiError } from "../../errors.ts";

/**
 * Why a backup or restore failed, in words a user may see (the console, the
 * list's `error`, the restore's answer): a system error's message names
 * places on the node, which are replaced by what they are.
 */
export function failureReason(error: unknown, places: Record<string, string>): string {
  let text = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  // An API error's message is a template its metadata fills (as a client would).
  if (error instanceof ApiError && error.metadata) {
    const metadata = error.metadata;
    text = text.replace(/\$\{(\w+)\}/g, (whole, key: string) =>
      key in metadata ? String(metadata[key]) : whole,
    );
  }
  // Longest first, so a folder inside another is named as itself.
  for (const dir of Object.keys(places).sort((a, b) => b.length - a.length)) {
    text = text.replaceAll(dir, places[dir]);
  }
  return text.slice(0, 1000);
}
