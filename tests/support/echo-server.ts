import { expect } from "vitest";
import { echoDefinition } from "./echo-template.ts";
import type { PanelClient } from "./http-client.ts";

/** Creates an echo server through the API (on the local node unless `node` is given) and checks it was made. */
export async function createEchoServer(
  api: PanelClient,
  id: string,
  fields: { name?: string; node?: number; users?: string[] } = {},
): Promise<void> {
  const res = await api.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0, ...fields });
  expect(res.status, res.text).toBe(200);
}
