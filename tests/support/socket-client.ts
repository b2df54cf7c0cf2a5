import WebSocket from "ws";
import type { PanelClient } from "./http-client.ts";

export interface SocketFrames {
  frames: { type: string; data: any }[];
  consoleText(): string;
  close(): void;
  closed: Promise<{ code: number }>;
}

/** Opens a server's socket as the browser would: with the client's cookies (or a bearer token). */
export function openServerSocket(
  client: PanelClient,
  serverId: string,
  opts: { bearer?: string; origin?: string } = {},
): Promise<SocketFrames> {
  const url = `${client.baseUrl.replace(/^http/, "ws")}/api/servers/${serverId}/socket`;
  const headers: Record<string, string> = {};
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  else headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  if (opts.origin) headers.origin = opts.origin;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const frames: SocketFrames["frames"] = [];
    const closed = new Promise<{ code: number }>((r) => socket.on("close", (code) => r({ code })));
    socket.on("message", (data) => frames.push(JSON.parse(data.toString())));
    socket.on("unexpected-response", (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    socket.on("error", reject);
    socket.on("open", () =>
      resolve({
        frames,
        closed,
        consoleText: () =>
          frames
            .filter((f) => f.type === "console")
            .map((f) => Buffer.from(f.data.logs, "base64").toString())
            .join(""),
        close: () => socket.close(),
      }),
    );
  });
}
