import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { transferUpgrade } from "../../server/contract/node/transfer-wire.ts";

/** An archive padded to whole 10 KiB records, as GNU tar writes one (a source node's is). */
export function inRecords(archive: Buffer): Buffer {
  return Buffer.concat([archive, Buffer.alloc((10_240 - (archive.length % 10_240)) % 10_240)]);
}

export interface FakeSourceOptions {
  /** What the source says it sent (default: the archive's size). */
  sent?: number;
  /** Writes only this many bytes of the archive, then breaks the connection. */
  cutAfter?: number;
  /** Refuses the upgrade with a 403 and this message, as a source refuses a bad grant. */
  refuse?: string;
}

/**
 * A stand-in source node on loopback speaking the export's upgrade
 * (transfer-connection.ts): answers 101, waits for the target's "go",
 * writes `archive` and closes; `…/digest` answers what it says it sent.
 */
export async function fakeSource(archive: () => Buffer, options: FakeSourceOptions = {}) {
  const server = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (!req.url?.endsWith("/digest")) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: "ErrNotFound", msg: "not an upgrade" } }));
      return;
    }
    res.end(JSON.stringify({ bytes: options.sent ?? archive().length }));
  });
  server.on("upgrade", (_req, socket: Duplex) => {
    socket.on("error", () => {});
    if (options.refuse) {
      const body = JSON.stringify({ error: { code: "ErrTransferGrantInvalid", msg: options.refuse } });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${transferUpgrade}\r\n\r\n`,
    );
    socket.once("data", () => {
      const bytes = archive();
      if (options.cutAfter === undefined) {
        socket.end(bytes);
        return;
      }
      socket.write(bytes.subarray(0, options.cutAfter));
      setTimeout(() => socket.destroy(), 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a target gets from an export address (`url`, with `authorization`):
 * the status of the answer and its body, the whole archive after a 101.
 */
export function readExport(url: string, authorization?: string): Promise<{ status: number; body: Buffer }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          (authorization ? `Authorization: ${authorization}\r\n` : "") +
          `Connection: Upgrade\r\nUpgrade: ${transferUpgrade}\r\n\r\n`,
      );
    });
    let received = Buffer.alloc(0);
    let asked = false;
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (!asked && end >= 0 && received.toString("latin1", 0, 12).endsWith("101")) {
        asked = true;
        socket.write("g");
      }
    });
    socket.on("error", reject);
    socket.on("end", () => {
      socket.destroy();
      const end = received.indexOf("\r\n\r\n");
      const status = Number(received.toString("latin1", 9, 12));
      resolve({ status, body: received.subarray(end + 4) });
    });
  });
}
