import { get, set } from "idb-keyval";
import type { TemplateRepo, TemplateSummary } from "../../api/templates";

// The last template listing seen (as the node list keeps its own): shown at once on the next
// visit while the fresh one loads. Only listings that worked are kept; errors are always fresh.

const KEY = "lastKnown.templates";

export type KnownRepo = TemplateRepo & { templates: TemplateSummary[] };

export async function lastKnownTemplates(): Promise<KnownRepo[] | undefined> {
  try {
    const list = await get<KnownRepo[]>(KEY);
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberTemplates(list: KnownRepo[]): Promise<void> {
  try {
    await set(KEY, list);
  } catch {
    // not remembered: the next visit waits for the network
  }
}
