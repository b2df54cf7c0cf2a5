import path from "node:path/posix";
import type { Readable } from "node:stream";
import type { Client, SFTPWrapper } from "ssh2";
import { sshFingerprint } from "../sign-in-methods/ssh-public-key.ts";
import type { VolumeEntry, VolumeSource } from "./volumes.ts";

/** An administrator of the old panel, as Wings' SFTP takes them: `<username>.<server's short id>`. */
export interface WingsLogin {
  username: string;
  password: string;
}

export interface WingsVolume extends VolumeSource {
  /** The SHA256 fingerprint of the node's host key, as ssh-keygen prints it. */
  hostKey: string;
  close(): void;
}

/**
 * A server's volume read over its Wings node's SFTP (`--sftp`): Wings checks the login against
 * the old panel, which lets an administrator into every server, and shows the server's volume
 * as `/`. Only reads: nothing there is written. Its host key is told, not checked (the old
 * panel knew none); the run prints it.
 */
export async function wingsVolume(
  host: string,
  port: number,
  shortId: string,
  login: WingsLogin,
): Promise<WingsVolume> {
  const { default: ssh2 } = await import("ssh2");
  const client: Client = new ssh2.Client();
  let hostKey = "";
  let failed: (err: Error) => void = () => {};
  // Every error of the connection ends up here: one after the first must not go unheard.
  client.on("error", (err) => failed(err));
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
    failed = reject;
    client.once("ready", () => client.sftp((err, wrapper) => (err ? reject(err) : resolve(wrapper))));
    client.connect({
      host,
      port,
      username: `${login.username}.${shortId}`,
      password: login.password,
      readyTimeout: 20_000,
      tryKeyboard: false,
      hostVerifier: (key: Buffer) => {
        hostKey = sshFingerprint(key);
        return true;
      },
    });
  }).catch((err: unknown) => {
    client.end();
    throw new Error(
      `SFTP ${login.username}.${shortId}@${host}:${port}: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  const at = (relative: string) => path.join("/", relative);
  return {
    hostKey,
    list(relative) {
      return new Promise<VolumeEntry[]>((resolve, reject) =>
        sftp.readdir(at(relative), (err, list) =>
          err
            ? reject(err)
            : resolve(
                list.map((entry) => ({
                  name: entry.filename,
                  kind: entry.attrs.isDirectory() ? "folder" : entry.attrs.isFile() ? "file" : "other",
                  size: entry.attrs.size,
                })),
              ),
        ),
      );
    },
    async open(relative): Promise<Readable> {
      return sftp.createReadStream(at(relative));
    },
    close() {
      client.end();
    },
  };
}
