import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import type { FastifyReply, FastifyServerFactory } from "fastify";
import { ReadCache } from "../db/read-cache.ts";
import { writeGeneration } from "../db/write-generation.ts";

/**
 * A kept list answered again before Fastify sees the request: a repeated
 * `GET /api/servers` (a phone refreshing its list, a script polling it) then
 * costs Node's HTTP parsing, one map lookup and one write, not the whole
 * request pipeline — which was most of a cached list's cost (bench/RESULTS.md).
 *
 * What is replayed is exactly what the pipeline sent the last time, status,
 * headers and bytes, recorded once the answer went out ('finish'), and only
 * to a request that would get the same one:
 * - the same method (GET), URL, credentials (the whole Cookie and
 *   Authorization headers: another caller never gets someone else's answer)
 *   and compression headers;
 * - while the caller's session is still live (sessionLive: kept in memory,
 *   not expired; a logout, a changed password or scope is a write, which
 *   drops it), and only when its access was checked at the same write
 *   generation the answer was read at (a write in between, and it is not
 *   kept);
 * - while the route's own cache still holds that answer (`stillCurrent`,
 *   cached-answer.ts: it too is dropped by any write to the database, and
 *   knows what else an answer depends on, such as which nodes answer).
 * Answers that set a cookie are never recorded. Anything else goes to
 * Fastify as before, and every access rule runs there.
 */
export interface Recording {
  body: Buffer;
  /** The write generation the answer was read at (read-cache.ts). */
  stamp: number;
  stillCurrent: () => boolean;
}

interface Replay {
  token: string;
  /** Name, value, name, value …: writeHead takes them without building an object. */
  headers: string[];
  body: Buffer;
  stillCurrent: () => boolean;
}

/** Headers Node writes on its own for each response. */
const perResponse = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

export class AnswerReplay {
  private readonly kept: ReadCache<Replay>;

  constructor(
    db: object,
    /** Whether the session of this token is kept in memory and not expired. */
    private readonly sessionLive: (token: string) => boolean,
    max = 256,
  ) {
    this.kept = new ReadCache(writeGeneration(db), max);
  }

  /** Answers the request with a kept answer and says true; false leaves it to Fastify. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== "GET") return false;
    const replay = this.kept.get(keyOf(request));
    if (replay === undefined || !this.sessionLive(replay.token) || !replay.stillCurrent()) return false;
    response.writeHead(200, replay.headers);
    response.end(replay.body);
    return true;
  }

  /**
   * Keeps the answer being sent once it went out whole ('finish'), if it is one to keep. Listened
   * for on the offered answers only: the other requests pay nothing for the replay.
   */
  offer(reply: FastifyReply, recording: Recording): void {
    const { request } = reply;
    if (request.method !== "GET") return;
    reply.raw.once("finish", () => {
      const principal = request.principal;
      if (
        principal === undefined ||
        principal.readAt !== recording.stamp ||
        reply.statusCode !== 200 ||
        reply.hasHeader("set-cookie")
      )
        return;
      const replay = { token: principal.token, headers: headerList(reply), ...recording };
      this.kept.set(keyOf(request.raw), replay, recording.stamp);
    });
  }
}

/** What decides an answer besides the route's own state: URL, credentials, compression. */
function keyOf(request: IncomingMessage): string {
  const { headers } = request;
  const flag = headers["x-no-compression"] === undefined ? "" : "x";
  return `${request.url}\n${headers.cookie ?? ""}\n${headers.authorization ?? ""}\n${headers["accept-encoding"] ?? ""}\n${flag}`;
}

function headerList(reply: FastifyReply): string[] {
  const list: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || perResponse.has(name)) continue;
    for (const one of [value].flat()) list.push(name, String(one));
  }
  return list;
}

/** Fastify's options for its server, with its defaults filled in. */
interface ServerSettings {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/**
 * Fastify's HTTP server, asking `replay` first: made with the settings
 * Fastify gives the server it makes itself (fastify/lib/server.js).
 */
export function replayingServer(replay: AnswerReplay): FastifyServerFactory<Server> {
  return (handler, options) => {
    const settings = options as unknown as ServerSettings;
    const server = createServer(settings.http ?? {}, (request, response) => {
      if (!replay.answer(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = settings.keepAliveTimeout;
    server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout);
    if (settings.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
    return server;
  };
}
