import fs from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { Transform } from "node:stream";
import {
  type TransferProgress,
  type TransferReceipt,
  type TransferSourceAddress,
  transferLayout,
} from "../../contract/node/transfer-wire.ts";
import { ApiError } from "../../errors.ts";
import { extractErrors } from "../archive/extract-budget.ts";
import { extractTarStream } from "../archive/index.ts";
import { Sandbox } from "../sandbox/index.ts";
import type { Owner } from "../servers/server-owner.ts";
import { tidyExtracted } from "./moved-tree.ts";
import { systemTarExtract, systemTarWorks, TarFailed } from "./system-tar.ts";
import { type ExportConnection, failureText, openExport } from "./transfer-connection.ts";
import { transferErrors as errors } from "./transfer-errors.ts";

/** How long a pull waits for the source's next bytes before it gives up. */
const stallMs = 120_000;

/**
 * The target's half of a move: fetches the source's archive into `staging`
 * (GNU tar in a sandbox where it works, reading the connection itself over
 * plain TCP; the JavaScript extractor otherwise), and checks its size
 * against what the source says it sent.
 */
export async function receiveArchive(
  source: TransferSourceAddress,
  staging: string,
  progress: TransferProgress,
  /** The server's uid on this node, given to its files as they are tidied (a root node's). */
  owner: () => Promise<Owner | undefined>,
  /** Which extractor unpacks it: GNU tar where it works here, else the JavaScript one. */
  systemTar = systemTarWorks(),
): Promise<TransferReceipt> {
  // A source that stops sending (a cut network) fails the pull, instead of holding it forever.
  const stalled = new AbortController();
  const watchdog = setTimeout(() => stalled.abort(new Error("the source stopped sending")), stallMs);
  const received = (bytes: number) => {
    progress.received = bytes;
    watchdog.refresh();
  };
  let connection: ExportConnection | undefined;
  try {
    connection = await openExport(source, systemTar, stalled.signal);
    const bytes = connection.handed
      ? await receiveHanded(staging, connection, received, stalled.signal, owner)
      : await receiveThroughNode(staging, connection, received, systemTar, owner);
    const sent = await sentBytes(source, stalled.signal);
    if (sent !== bytes) throw errors.corrupt();
    return { bytes };
  } finally {
    clearTimeout(watchdog);
    connection?.socket.destroy();
  }
}

/** tar reads the connection itself; tar's count, and what came after it, are what arrived. */
async function receiveHanded(
  staging: string,
  connection: ExportConnection,
  received: (bytes: number) => void,
  signal: AbortSignal,
  owner: () => Promise<Owner | undefined>,
): Promise<number> {
  const { socket } = connection;
  const extracted = systemTarExtract(staging, socket, { handed: true, onRead: received, signal });
  connection.start();
  const read = await extractWithTar(staging, extracted, owner);
  const bytes = (read ?? 0) + (await connection.rest());
  received(bytes);
  return bytes;
}

/** Over TLS, or into the JavaScript extractor: Node reads the connection and counts it. */
async function receiveThroughNode(
  staging: string,
  connection: ExportConnection,
  received: (bytes: number) => void,
  systemTar: boolean,
  owner: () => Promise<Owner | undefined>,
): Promise<number> {
  let bytes = 0;
  const counted = new Transform({
    // Reads on while the extractor writes (the JavaScript one pauses its source for each
    // entry): the network is not left idle for every small file.
    highWaterMark: 8 * 1024 * 1024,
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      received(bytes);
      done(null, chunk);
    },
  });
  const { socket } = connection;
  socket.on("error", (error) => counted.destroy(error));
  socket.pipe(counted);
  connection.start();
  if (systemTar) await extractWithTar(staging, systemTarExtract(staging, counted), owner);
  else await extractWithJavaScript(staging, counted);
  return bytes;
}

/** What the source says it sent, asked once the archive has arrived. */
async function sentBytes(source: TransferSourceAddress, signal: AbortSignal): Promise<number> {
  const answer = await getJson(
    `${source.url}/digest`,
    { authorization: `Bearer ${source.grant}` },
    signal,
  ).catch((error) => {
    throw errors.source("it cannot be reached", error);
  });
  if (answer.status !== 200) throw errors.source(failureText(answer.status, answer.text));
  const bytes = (JSON.parse(answer.text) as Partial<TransferReceipt>).bytes;
  if (typeof bytes !== "number") throw errors.source("it did not say what it sent");
  return bytes;
}

async function extractWithJavaScript(staging: string, input: Transform): Promise<void> {
  try {
    await extractTarStream(new Sandbox(staging), input, "tar", "", { ownFolder: true });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) throw error;
    if (error instanceof ApiError && error.code === "ErrNoSpace") throw error;
    throw errors.source("the connection broke", error);
  }
}

async function extractWithTar(
  staging: string,
  extracting: Promise<number | undefined>,
  owner: () => Promise<Owner | undefined>,
): Promise<number | undefined> {
  let read: number | undefined;
  try {
    read = await extracting;
  } catch (error) {
    // An archive that stops short is a connection that broke, not a hostile one.
    if (!(error instanceof TarFailed) || /Unexpected EOF/.test(error.said))
      throw errors.source("the connection broke", error);
    if (error.noSpace) {
      const stats = await fs.statfs(staging).catch(() => undefined);
      throw extractErrors.noSpace(stats ? stats.bavail * stats.bsize : 0);
    }
    throw new ApiError(
      400,
      "ErrIllegalFileAccess",
      "the moved archive was refused: ${reason}",
      { reason: error.message },
      { cause: error },
    );
  }
  await tidyExtracted(path.join(staging, transferLayout.files), { links: true, owner: await owner() }).catch(
    ignoreMissing,
  );
  for (const folder of [transferLayout.backups, transferLayout.meta])
    await tidyExtracted(path.join(staging, folder), { links: false }).catch(ignoreMissing);
  return read;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}

/** A small GET through Node's own client (fetch's would load undici for one answer). */
function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ status: number | undefined; text: string }> {
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers, signal }, async (answer) => {
      let text = "";
      try {
        for await (const chunk of answer) {
          text += chunk;
          if (text.length > 65_536) break;
        }
        resolve({ status: answer.statusCode, text });
      } catch (error) {
        reject(error);
      }
    });
    request.on("error", reject);
  });
}
