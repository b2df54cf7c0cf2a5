import { errorText } from "../../errors.ts";

/**
 * Why a backup or restore failed, in words a user may see (the console, the
 * list's `error`, the restore's answer): a system error's message names
 * places on the node, which are replaced by what they are.
 */
export function failureReason(error: unknown, places: Record<string, string>): string {
  let text = errorText(error);
  // Longest first, so a folder inside another is named as itself.
  for (const dir of Object.keys(places).sort((a, b) => b.length - a.length)) {
    text = text.replaceAll(dir, places[dir]);
  }
  return text.slice(0, 1000);
}
