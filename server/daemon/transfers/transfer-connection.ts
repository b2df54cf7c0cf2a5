import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { type TransferSourceAddress, transferUpgrade } from "../../contract/node/transfer-wire.ts";
import { transferErrors as errors } from "./transfer-errors.ts";

/**
 * The connection a moved server's archive crosses. The target asks the
 * source's export address for an upgrade (`Upgrade: outpost-transfer`, the
 * grant as its bearer token); the source checks the grant, answers 101 and
 * waits; the target says "go" (one byte) once it is ready to read, and the
 * source writes the archive and closes.
 *
 * The wait is what lets both ends hand the connection itself to tar: no
 * byte of the archive arrives with the answer's headers, so Node holds none
 * of it when tar starts reading (bytes Node read with the headers would be
 * lost to tar), and neither Node process carries the archive (on two cores,
 * that was half a move's time: bench/transfer.ts). A plain HTTP upgrade goes
 * through proxies that pass WebSockets.
 */
const go = Buffer.from("g");
const headersEnd = Buffer.from("\r\n\r\n");
/** The most of a refusal (headers and body) a target reads. */
const maxAnswerBytes = 65_536;
/** How long either end waits for the other's next step of the handshake. */
const handshakeMs = 30_000;
/** TCP keep-alive's first probe on an idle connection (tar blocked on a peer that vanished). */
const keepAliveMs = 30_000;

/** The target's end, upgraded: call `start()` once ready to read, and the archive follows. */
export interface ExportConnection {
  socket: net.Socket;
  /** The connection can be given to a child process as is (plain TCP, Node reads none of it). */
  handed: boolean;
  start(): void;
  /**
   * For a handed connection, once its child is done: reads on to the source's
   * end (the source records what it sent before it closes) and answers the
   * bytes that came after what the child read (none from a sound source).
   */
  rest(): Promise<number>;
}

/**
 * Opens the source's export. `forChild`: the connection will be a child
 * process's standard input (plain TCP only; over TLS Node reads it), so
 * Node stops reading it once the headers are in.
 */
export function openExport(
  source: TransferSourceAddress,
  forChild: boolean,
  signal: AbortSignal,
): Promise<ExportConnection> {
  const url = new URL(source.url);
  // The grant goes into a header line: nothing but its own characters.
  if (!/^[\w.-]+$/.test(source.grant)) throw errors.source("its grant is malformed");
  const secure = url.protocol === "https:";
  const handed = forChild && !secure;
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let received = Buffer.alloc(0);
  return new Promise<ExportConnection>((resolve, reject) => {
    let onBytes = (chunk: Buffer) => take(chunk);
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(errors.source("it did not answer")), handshakeMs);
    const onAbort = () => fail(errors.source("the source stopped sending"));
    signal.addEventListener("abort", onAbort, { once: true });
    // Until it is upgraded, what arrives is the answer; an error answer is read to its end.
    const take = (chunk: Buffer): boolean => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(headersEnd);
      // An answer is small: a source that sends on and on is cut off, not buffered.
      if (received.length > maxAnswerBytes) {
        fail(errors.source(end < 0 ? "its answer has no end" : "its answer is too long"));
        return false;
      }
      if (end < 0) return !settled;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.toString("latin1", 0, end));
      if (status?.[1] !== "101") return !settled;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (received.length > end + headersEnd.length) {
        socket.destroy();
        reject(errors.source("it sent the archive before it was asked to"));
        return false;
      }
      socket.off("data", take);
      socket.off("end", ended);
      socket.pause();
      resolve({ socket, handed, start: () => socket.write(go), rest });
      return false;
    };
    const rest = () =>
      new Promise<number>((done) => {
        let extra = 0;
        // After the child, Node reads again: a byte more is a source that broke the protocol.
        onBytes = (chunk) => {
          extra += chunk.length;
          socket.destroy();
          return false;
        };
        socket.once("close", () => done(extra));
        socket.once("end", () => done(extra));
        signal.addEventListener("abort", () => socket.destroy(), { once: true });
        socket.resume();
      });
    const ended = () => {
      const end = received.indexOf(headersEnd);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.toString("latin1"))?.[1];
      const body = end < 0 ? "" : received.toString("utf8", end + headersEnd.length);
      fail(errors.source(status ? failureText(status, body) : "the connection broke"));
    };
    const options = {
      host,
      port,
      // With `onread`, pause() stops Node reading the socket at all (a child reads it then).
      ...(handed
        ? {
            onread: {
              buffer: Buffer.alloc(16_384),
              callback: (n: number, buf: Buffer) => onBytes(Buffer.from(buf.subarray(0, n))),
            },
          }
        : {}),
    };
    const socket: net.Socket = secure
      ? tls.connect({ ...options, servername: net.isIP(host) ? undefined : host })
      : net.connect(options);
    if (!handed) socket.on("data", take);
    // A node that vanished (no reset, no close) is found by the kernel, tar then fails on it.
    socket.setKeepAlive(true, keepAliveMs);
    socket.on("end", ended);
    socket.on("error", (error) => fail(errors.source("it cannot be reached", error)));
    socket.once(secure ? "secureConnect" : "connect", () => {
      socket.write(
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Authorization: Bearer ${source.grant}\r\nConnection: Upgrade\r\nUpgrade: ${transferUpgrade}\r\n\r\n`,
      );
    });
  });
}

/**
 * The source's end: answers the upgrade, waits for the target's "go" and
 * calls `send` with the connection. After "go" the target has nothing more
 * to say; a byte more ends the connection (Node never reads on a socket a
 * child process writes to).
 */
export function acceptExport(socket: Duplex, send: (socket: Duplex) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("the target did not start reading"));
    }, handshakeMs);
    const onData = (chunk: Buffer) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.on("data", () => socket.destroy());
      if (!chunk.equals(go)) {
        socket.destroy();
        reject(new Error("the target broke the handshake"));
        return;
      }
      send(socket).then(resolve, reject);
    };
    const onClose = () => {
      clearTimeout(timer);
      reject(new Error("the target went away before it started reading"));
    };
    socket.on("data", onData);
    socket.once("close", onClose);
    if (socket instanceof net.Socket) socket.setKeepAlive(true, keepAliveMs);
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${transferUpgrade}\r\n\r\n`,
    );
  });
}

/** The error message of a JSON error answer, or its status. */
export function failureText(status: string | number | undefined, text: string): string {
  try {
    return JSON.parse(text).error?.msg ?? `status ${status}`;
  } catch {
    return `status ${status}`;
  }
}
