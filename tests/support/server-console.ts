import type { PanelClient } from "./http-client.ts";

/** A server's console as the panel keeps it (GET /api/servers/{id}/console), decoded to text. */
export async function consoleText(api: PanelClient, id: string): Promise<string> {
  const res = await api.get(`/api/servers/${id}/console`);
  return Buffer.from(res.body.logs, "base64").toString();
}
