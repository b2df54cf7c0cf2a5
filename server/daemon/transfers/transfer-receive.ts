import { createHash } from "node:crypto";
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
import { transferErrors as errors } from "./transfer-errors.ts";

/** How long a pull waits for the source's next bytes before it gives up. */
const stallMs = 120_000;

/**
 * The target's half of a move: fetches the source's archive into `staging`
 * (GNU tar in a sandbox where it works, the JavaScript extractor otherwise),
 * and checks its size and sha256 against what the source says it sent.
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
  // As it is: the bytes are mostly compressed already (backups, worlds), and a panel serving
  // its local node's export would otherwise spend a core compressing them.
  const headers = {
    authorization: `Bearer ${source.grant}`,
    "accept-encoding": "identity",
    "x-no-compression": "1",
  };
  // A source that stops sending (a cut network) fails the pull, instead of holding it forever.
  const stalled = new AbortController();
  const watchdog = setTimeout(() => stalled.abort(new Error("the source stopped sending")), stallMs);
  try {
    const body = await get(source.url, headers, stalled.signal).catch((error) => {
      throw errors.source("it cannot be reached", error);
    });
    if (body.statusCode !== 200) throw errors.source(failureText(body.statusCode, await textOf(body)));
    const hash = createHash("sha256");
    const counted = new Transform({
      // Reads on while the extractor writes (the JavaScript one pauses its source for each
      // entry): the network is not left idle for every small file.
      highWaterMark: 8 * 1024 * 1024,
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        progress.received += chunk.length;
        watchdog.refresh();
        done(null, chunk);
      },
    });
    body.on("error", (error) => counted.destroy(error));
    body.pipe(counted);
    await (systemTar ? extractWithTar : extractWithJavaScript)(staging, counted, owner);
    const received: TransferReceipt = { bytes: progress.received, sha256: hash.digest("hex") };
    const answer = await fetch(`${source.url}/digest`, { headers, signal: stalled.signal }).catch((error) => {
      throw errors.source("it cannot be reached", error);
    });
    if (!answer.ok) throw errors.source(failureText(answer.status, await answer.text().catch(() => "")));
    const sent = (await answer.json()) as TransferReceipt;
    if (sent.bytes !== received.bytes || sent.sha256 !== received.sha256) throw errors.corrupt();
    return received;
  } finally {
    clearTimeout(watchdog);
  }
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
  input: Transform,
  owner: () => Promise<Owner | undefined>,
): Promise<void> {
  try {
    await systemTarExtract(staging, input);
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
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}

/** A GET whose body streams as Node's own stream: no web-stream layer on the way (half the cost). */
function get(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers, signal }, resolve);
    request.on("error", reject);
  });
}

async function textOf(body: http.IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of body) {
    text += chunk;
    if (text.length > 65_536) break;
  }
  return text;
}

function failureText(status: number | undefined, text: string): string {
  try {
    return JSON.parse(text).error?.msg ?? `status ${status}`;
  } catch {
    return `status ${status}`;
  }
}
